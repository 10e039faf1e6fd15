import MQTT

/// MQTT-shaped byte strings for the proxy's tests; the proxy reads only their fixed headers.
enum TestPackets {
    static let pingRequest: [UInt8] = [0xC0, 0x00]

    /// A QoS 0 PUBLISH of `length` bytes in all (at least 6), its payload counting up from `seed`.
    static func publish(length: Int, seed: UInt8 = 0) -> [UInt8] {
        precondition(length >= 6)
        var bodyLength = length - 2
        while bodyLength + 1 + remainingLength(bodyLength).count > length { bodyLength -= 1 }
        let topic: [UInt8] = [0, 1, UInt8(ascii: "t")]
        let payload = (0..<(bodyLength - topic.count)).map { UInt8(truncatingIfNeeded: Int($0) &+ Int(seed)) }
        return [0x30] + remainingLength(bodyLength) + topic + payload
    }

    private static func remainingLength(_ value: Int) -> [UInt8] {
        var writer = ByteWriter()
        writer.writeVariableByteInteger(UInt32(value))
        return writer.bytes
    }

    /// `count` bytes counting up from `seed`: not MQTT, for tests of plain forwarding.
    static func bytes(_ count: Int, seed: Int = 0) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &+ seed) }
    }
}
