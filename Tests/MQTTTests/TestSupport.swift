import MQTT
import Testing

/// SplitMix64: a tiny seeded generator so randomized tests repeat exactly.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A packet with its fixed header: the first byte, then the remaining length (one byte, < 128).
func frame(_ first: UInt8, _ body: [UInt8]) -> [UInt8] {
    precondition(body.count < 128)
    return [first, UInt8(body.count)] + body
}

/// A UTF-8 string field: 2-byte length then the bytes.
func string(_ text: String) -> [UInt8] {
    let utf8 = Array(text.utf8)
    return [UInt8(utf8.count >> 8), UInt8(utf8.count & 0xFF)] + utf8
}

/// Decodes `bytes` as one frame and expects it refused with `code`.
func expectRefused(
    _ bytes: [UInt8], _ code: ReasonCode, _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    do {
        let packet = try Packet(frame: bytes)
        Issue.record("decoded \(packet), expected \(code)", sourceLocation: sourceLocation)
    } catch {
        #expect(error.reasonCode == code, "\(error) \(comment?.rawValue ?? "")", sourceLocation: sourceLocation)
    }
}

/// A packet of every type, with properties, as a stream might carry them.
let samplePackets: [Packet] = [
    .connect(Connect(
        clientIdentifier: "device-1", cleanStart: false, keepAlive: 30, userName: "app-key",
        password: Array("token".utf8),
        will: Will(topic: "im/will", payload: [1, 2, 3], qos: .atLeastOnce, retain: true, properties: [.willDelayInterval(5)]),
        properties: [.sessionExpiryInterval(604_800), .userProperty("im-platform", "pc"), .userProperty("im-reconnect", "1")])),
    .connack(ConnAck(sessionPresent: true, properties: [.userProperty("im-user-id", "u1"), .receiveMaximum(10)])),
    .publish(Publish(
        topic: "im/send/u2", payload: Array(repeating: 0x61, count: 300), qos: .atLeastOnce, packetIdentifier: 9,
        properties: [.payloadFormatIndicator(.utf8), .contentType("application/json")])),
    .publish(Publish(topic: "a/b", payload: [], qos: .atMostOnce, retain: true)),
    .publish(Publish(topic: "q2", payload: [0], qos: .exactlyOnce, packetIdentifier: 65535, dup: true)),
    .puback(PubAck(packetIdentifier: 9)),
    .pubrec(PubRec(packetIdentifier: 10, reasonCode: .noMatchingSubscribers)),
    .pubrel(PubRel(packetIdentifier: 10, properties: [.reasonString("ok")])),
    .pubcomp(PubComp(packetIdentifier: 10, reasonCode: .packetIdentifierNotFound)),
    .subscribe(Subscribe(packetIdentifier: 1, subscriptions: [
        .init("im/inbox/#", options: .init(qos: .atLeastOnce)),
        .init("$share/g/a/+", options: .init(qos: .exactlyOnce, retainAsPublished: true, retainHandling: .doNotSend)),
    ], properties: [.subscriptionIdentifier(42)])),
    .suback(SubAck(packetIdentifier: 1, reasonCodes: [.grantedQoS1, .notAuthorized])),
    .unsubscribe(Unsubscribe(packetIdentifier: 2, topicFilters: ["im/inbox/#", "x"])),
    .unsuback(UnsubAck(packetIdentifier: 2, reasonCodes: [.success, .noSubscriptionExisted])),
    .pingreq,
    .pingresp,
    .disconnect(Disconnect()),
    .disconnect(Disconnect(reasonCode: .sessionTakenOver, properties: [.userProperty("im-error", "other-device-login")])),
    .auth(Auth(reasonCode: .continueAuthentication, properties: [.authenticationMethod("SCRAM"), .authenticationData([9])])),
]
