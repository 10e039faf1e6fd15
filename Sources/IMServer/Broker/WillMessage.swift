import MQTT

/// A client's will, checked at CONNECT: the message the server sends for it if its connection
/// ends abnormally (MQTT 5 section 3.1.2.5).
///
/// A class, not a struct: every connection has a slot for one and few fill it, and an empty
/// optional reference costs a connection 8 bytes where an inline value cost 72.
final class WillMessage {
    let recipient: String
    let cid: String
    let text: String
    /// The Will Delay Interval, capped by the Session Expiry Interval (the session ending first
    /// publishes it, MQTT-3.1.3-9).
    let delay: Duration

    init(recipient: String, cid: String, text: String, delay: Duration) {
        self.recipient = recipient
        self.cid = cid
        self.text = text
        self.delay = delay
    }

    /// Why a CONNECT's will is refused: its CONNACK reason code and a reason string.
    struct Refusal: Error {
        var code: ReasonCode
        var reason: String

        init(_ code: ReasonCode, _ reason: String) {
            self.code = code
            self.reason = reason
        }
    }
}
