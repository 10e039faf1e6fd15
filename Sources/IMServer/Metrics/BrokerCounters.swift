import IMProtocol
import MQTT

/// What the broker has counted since it started, for `/metrics`.
///
/// Owned by the broker's loop like the rest of `BrokerCore`: the message path adds to plain
/// integers, with no lock or atomic; a scrape hops onto the loop and copies the whole value.
/// Refusals and disconnects, which are rarer, go into small dictionaries by reason.
struct BrokerCounters: Sendable {
    /// An MQTT reason code and the `im-error` name sent with it, if any: one label pair.
    struct Reason: Hashable, Sendable {
        var code: UInt8
        var name: String?

        init(_ code: ReasonCode, _ name: IMErrorName? = nil) {
            self.code = code.rawValue
            self.name = name?.rawValue
        }

        /// `code` in hex and `reason`: the `im-error` name, else the MQTT name in snake case.
        var labels: [(String, String)] {
            let code = ReasonCode(rawValue: code)
            return [("code", code.hex), ("reason", name ?? code.name.replacing(" ", with: "_"))]
        }
    }

    /// CONNACK 0x00 sent.
    var loginsAccepted = 0
    /// CONNACK with a failure code, by code and `im-error`.
    var loginsRefused: [Reason: Int] = [:]
    /// DISCONNECTs the server sent (kicks, takeovers, blocks, keep-alive timeouts, shutdown), by reason.
    var disconnects: [Reason: Int] = [:]
    /// PUBLISHes from logged-in clients.
    var messagesReceived = 0
    /// Messages stored and queued for their recipients (clients', the API's and wills'); a
    /// resend found by its cid is not counted twice.
    var messagesStored = 0
    /// PUBLISHes sent to devices, resends included.
    var messagesDelivered = 0
    /// PUBACKs from devices for deliveries.
    var messagesAcknowledged = 0
    /// Reads of a device's queue begun: a stored message not handed over as it was stored
    /// costs one (or a share of one), as does each connection's first look at its queue.
    var queueReads = 0
    /// Messages not stored, by the PUBACK code (or DISCONNECT 0x89 when the store was out of reach).
    var messagesRefused: [Reason: Int] = [:]
}
