/// A NOTIFY payload on the cluster channel that is not a notice this node understands.
struct ClusterNoticeError: Error, CustomStringConvertible {
    var payload: String

    var description: String { "unreadable cluster notice: \(payload.prefix(200))" }
}
