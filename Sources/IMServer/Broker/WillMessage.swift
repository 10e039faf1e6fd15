import MQTT

/// A client's will, checked at CONNECT: the message the server sends for it if its connection
/// ends abnormally (MQTT 5 section 3.1.2.5).
struct WillMessage {
    var recipient: String
    var cid: String
    var text: String
    /// The Will Delay Interval, capped by the Session Expiry Interval (the session ending first
    /// publishes it, MQTT-3.1.3-9).
    var delay: Duration

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
