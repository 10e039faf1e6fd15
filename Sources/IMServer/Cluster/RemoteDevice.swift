/// A device logged in on another node of the cluster.
struct RemoteDevice: Sendable, Equatable {
    var deviceID: String
    var platform: String
    var sequence: Int64
}
