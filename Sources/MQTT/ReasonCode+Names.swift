extension ReasonCode: CustomStringConvertible {
    private struct Entry: Sendable {
        let name: String
        let packets: [PacketType]
    }

    // Names and packets from MQTT 5 table 2-6; 0x00-0x02 have per-packet names, see `name(in:)`.
    private static let table: [UInt8: Entry] = {
        let connack = PacketType.connack, puback = PacketType.puback, pubrec = PacketType.pubrec
        let suback = PacketType.suback, unsuback = PacketType.unsuback, disconnect = PacketType.disconnect
        let entries: [(UInt8, String, [PacketType])] = [
            (0x00, "success", [connack, puback, pubrec, .pubrel, .pubcomp, suback, unsuback, disconnect, .auth]),
            (0x01, "granted QoS 1", [suback]),
            (0x02, "granted QoS 2", [suback]),
            (0x04, "disconnect with will message", [disconnect]),
            (0x10, "no matching subscribers", [puback, pubrec]),
            (0x11, "no subscription existed", [unsuback]),
            (0x18, "continue authentication", [.auth]),
            (0x19, "re-authenticate", [.auth]),
            (0x80, "unspecified error", [connack, puback, pubrec, suback, unsuback, disconnect]),
            (0x81, "malformed packet", [connack, disconnect]),
            (0x82, "protocol error", [connack, disconnect]),
            (0x83, "implementation specific error", [connack, puback, pubrec, suback, unsuback, disconnect]),
            (0x84, "unsupported protocol version", [connack]),
            (0x85, "client identifier not valid", [connack]),
            (0x86, "bad user name or password", [connack]),
            (0x87, "not authorized", [connack, puback, pubrec, suback, unsuback, disconnect]),
            (0x88, "server unavailable", [connack]),
            (0x89, "server busy", [connack, disconnect]),
            (0x8A, "banned", [connack]),
            (0x8B, "server shutting down", [disconnect]),
            (0x8C, "bad authentication method", [connack, disconnect]),
            (0x8D, "keep alive timeout", [disconnect]),
            (0x8E, "session taken over", [disconnect]),
            (0x8F, "topic filter invalid", [suback, unsuback, disconnect]),
            (0x90, "topic name invalid", [connack, puback, pubrec, disconnect]),
            (0x91, "packet identifier in use", [puback, pubrec, suback, unsuback]),
            (0x92, "packet identifier not found", [.pubrel, .pubcomp]),
            (0x93, "receive maximum exceeded", [disconnect]),
            (0x94, "topic alias invalid", [disconnect]),
            (0x95, "packet too large", [connack, disconnect]),
            (0x96, "message rate too high", [disconnect]),
            (0x97, "quota exceeded", [connack, puback, pubrec, suback, disconnect]),
            (0x98, "administrative action", [disconnect]),
            (0x99, "payload format invalid", [connack, puback, pubrec, disconnect]),
            (0x9A, "retain not supported", [connack, disconnect]),
            (0x9B, "QoS not supported", [connack, disconnect]),
            (0x9C, "use another server", [connack, disconnect]),
            (0x9D, "server moved", [connack, disconnect]),
            (0x9E, "shared subscriptions not supported", [suback, disconnect]),
            (0x9F, "connection rate exceeded", [connack, disconnect]),
            (0xA0, "maximum connect time", [disconnect]),
            (0xA1, "subscription identifiers not supported", [suback, disconnect]),
            (0xA2, "wildcard subscriptions not supported", [suback, disconnect]),
        ]
        return Dictionary(uniqueKeysWithValues: entries.map { ($0.0, Entry(name: $0.1, packets: $0.2)) })
    }()

    /// Every reason code the MQTT 5 standard defines, in order.
    public static let allDefined: [ReasonCode] = table.keys.sorted().map(ReasonCode.init(rawValue:))

    /// Whether the MQTT 5 standard defines this code.
    public var isDefined: Bool { Self.table[rawValue] != nil }

    /// The code in hex, such as "0x87".
    public var hex: String {
        let digits = String(rawValue, radix: 16, uppercase: true)
        return rawValue < 0x10 ? "0x0\(digits)" : "0x\(digits)"
    }

    /// The standard's name in lower case, such as "not authorized".
    public var name: String { Self.table[rawValue]?.name ?? "unknown reason code" }

    /// The standard's name for this code in `packetType`, which differs for 0x00.
    public func name(in packetType: PacketType) -> String {
        switch (rawValue, packetType) {
        case (0x00, .disconnect): return "normal disconnection"
        case (0x00, .suback): return "granted QoS 0"
        default: return name
        }
    }

    /// The packet types the standard lets carry this code.
    public var packetTypes: [PacketType] { Self.table[rawValue]?.packets ?? [] }

    /// Whether the standard lets `packetType` carry this code.
    public func isValid(in packetType: PacketType) -> Bool {
        Self.table[rawValue]?.packets.contains(packetType) ?? false
    }

    /// The code and its name, such as "0x87 not authorized".
    public var description: String { "\(hex) \(name)" }
}
