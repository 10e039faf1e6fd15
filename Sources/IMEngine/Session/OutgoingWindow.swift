/// Packet identifiers of the session's unacknowledged PUBLISHes (and its SUBSCRIBE).
///
/// A message keeps its identifier across reconnections, so a resend carries the same one with
/// DUP set, as MQTT asks when the server resumed the session.
struct OutgoingWindow {
    private var idsByCID: [String: UInt16] = [:]
    private var cidsByID: [UInt16: String] = [:]
    private var reserved: Set<UInt16> = []
    private var last: UInt16 = 0

    /// The identifier for `cid` and whether it was assigned before; nil when all 65,535 are in use.
    mutating func packetID(for cid: String) -> (id: UInt16, isResend: Bool)? {
        if let id = idsByCID[cid] { return (id, true) }
        guard let id = nextFree() else { return nil }
        idsByCID[cid] = id
        cidsByID[id] = cid
        return (id, false)
    }

    /// An identifier for a packet that is not a message (SUBSCRIBE); free it with `release`.
    mutating func reserve() -> UInt16? {
        guard let id = nextFree() else { return nil }
        reserved.insert(id)
        return id
    }

    mutating func release(_ id: UInt16) {
        reserved.remove(id)
    }

    /// The message PUBACK `id` acknowledges, which gives its identifier back.
    mutating func acknowledge(_ id: UInt16) -> String? {
        guard let cid = cidsByID.removeValue(forKey: id) else { return nil }
        idsByCID[cid] = nil
        return cid
    }

    private mutating func nextFree() -> UInt16? {
        for _ in 0..<Int(UInt16.max) {
            last = last == UInt16.max ? 1 : last + 1
            if cidsByID[last] == nil && !reserved.contains(last) { return last }
        }
        return nil
    }
}
