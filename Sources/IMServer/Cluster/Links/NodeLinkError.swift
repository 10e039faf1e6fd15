/// Why a link between two nodes was refused or ended: the peer's line broke the handshake or
/// the framing (`NodeLinkHandshake`, `NodeLinkConnection`).
struct NodeLinkError: Error, Equatable, CustomStringConvertible {
    let reason: String

    var description: String { reason }
}
