/// MQTT 3.1.1 on the wire, for a server whose model is MQTT 5.
///
/// A 3.1.1 client's packets are the MQTT 5 ones without properties (and a CONNECT at protocol
/// level 4): `decode` puts empty property sections where MQTT 5 has them and decodes with the
/// MQTT 5 decoder, so every check it makes holds. `encode` writes the packets a server sends
/// in their 3.1.1 form: properties dropped, reason codes mapped to 3.1.1 return codes.
/// What 3.1.1 cannot carry (user properties such as `im-user-id` and `im-error`, reason
/// strings, a server's DISCONNECT) is lost; the caller closes instead of disconnecting.
public enum MQTT311 {
    /// The protocol level of MQTT 3.1.1 in CONNECT.
    public static let protocolLevel: UInt8 = 4

    /// Whether `frame` is a CONNECT at protocol level 4.
    public static func isConnect(_ frame: [UInt8]) -> Bool {
        // Fixed header (1 + 1...4 bytes), then "\0\4MQTT" and the level.
        guard frame.first == 0x10, let start = bodyStart(frame), frame.count > start + 6 else { return false }
        return Array(frame[start..<start + 6]) == [0, 4, 0x4D, 0x51, 0x54, 0x54] && frame[start + 6] == protocolLevel
    }

    /// Whether `frame` is a CONNECT of MQTT 3.1 ("MQIsdp", level 3) or 3.1.1: a client that
    /// reads only a 3.x CONNACK, so even its refusal (return code 1 for 3.1) goes in 3.1.1 form.
    public static func isPre5Connect(_ frame: [UInt8]) -> Bool {
        if isConnect(frame) { return true }
        // "\0\6MQIsdp" and level 3.
        guard frame.first == 0x10, let start = bodyStart(frame), frame.count > start + 8 else { return false }
        return Array(frame[start...start + 8]) == [0, 6, 0x4D, 0x51, 0x49, 0x73, 0x64, 0x70, 3]
    }

    /// Decodes one whole 3.1.1 packet from a client.
    public static func decode(frame: [UInt8]) throws(MQTTError) -> Packet {
        guard let start = bodyStart(frame) else { throw .malformed("bad remaining length") }
        var body = Array(frame[start...])
        let type = frame[0] >> 4
        switch type {
        case 1:
            guard isConnect(frame) else { throw MQTTError(.unsupportedProtocolVersion, "MQTT 3.1 is not served; use 3.1.1 or 5") }
            try upgradeConnect(&body)
        case 3: try insertProperties(&body, after: topicEnd(body) + (frame[0] & 0x06 != 0 ? 2 : 0))
        case 8, 10: try insertProperties(&body, after: 2)
        default: break
        }
        var writer = ByteWriter(capacity: body.count + 5)
        writer.writeUInt8(frame[0])
        writer.writeVariableByteInteger(UInt32(body.count))
        writer.writeBytes(body)
        return try Packet(frame: writer.bytes)
    }

    /// The 3.1.1 bytes of a packet a server sends; nil for one 3.1.1 has not (DISCONNECT, AUTH).
    public static func encode(_ packet: Packet) -> [UInt8]? {
        var body = ByteWriter()
        let header: UInt8
        switch packet {
        case .connack(let connack):
            header = 0x20
            body.writeUInt8(connack.sessionPresent ? 1 : 0)
            body.writeUInt8(returnCode(for: connack.reasonCode))
        case .publish(let publish):
            header = 0x30 | publish.fixedHeaderFlags
            body.writeString(publish.topic)
            if publish.qos != .atMostOnce { body.writeUInt16(publish.packetIdentifier) }
            body.writeBytes(publish.payload)
        case .puback(let ack):
            header = 0x40
            body.writeUInt16(ack.packetIdentifier)
        case .suback(let ack):
            header = 0x90
            body.writeUInt16(ack.packetIdentifier)
            for code in ack.reasonCodes { body.writeUInt8(code.isFailure ? 0x80 : code.rawValue) }
        case .unsuback(let ack):
            header = 0xB0
            body.writeUInt16(ack.packetIdentifier)
        case .pingresp:
            header = 0xD0
        default:
            return nil
        }
        var writer = ByteWriter(capacity: body.count + 5)
        writer.writeUInt8(header)
        writer.writeVariableByteInteger(UInt32(body.count))
        writer.writeBytes(body.bytes)
        return writer.bytes
    }

    /// The CONNACK return code of 3.1.1 closest to an MQTT 5 reason code.
    public static func returnCode(for reasonCode: ReasonCode) -> UInt8 {
        switch reasonCode.rawValue {
        case 0x00: return 0
        case 0x84: return 1 // unacceptable protocol version
        case 0x85: return 2 // identifier rejected
        case 0x86: return 4 // bad user name or password
        case 0x87, 0x8A, 0x8C: return 5 // not authorized (also banned, bad authentication method)
        default: return 3 // server unavailable (busy, rate exceeded, shutting down, ...)
        }
    }

    private static func bodyStart(_ frame: [UInt8]) -> Int? {
        var index = 1
        while index < frame.count && index <= 4 {
            if frame[index] & 0x80 == 0 { return index + 1 }
            index += 1
        }
        return nil
    }

    /// Level 4 becomes 5, and empty properties go after Keep Alive and before the will topic.
    private static func upgradeConnect(_ body: inout [UInt8]) throws(MQTTError) {
        guard body.count >= 12 else { throw .malformed("CONNECT is too short") }
        body[6] = Connect.protocolLevel
        let hasWill = body[7] & 0x04 != 0
        try insertProperties(&body, after: 10)
        if hasWill { try insertProperties(&body, after: try stringEnd(body, at: 11)) }
    }

    private static func topicEnd(_ body: [UInt8]) throws(MQTTError) -> Int { try stringEnd(body, at: 0) }

    private static func stringEnd(_ body: [UInt8], at offset: Int) throws(MQTTError) -> Int {
        guard body.count >= offset + 2 else { throw .malformed("a string runs past the packet") }
        let end = offset + 2 + Int(body[offset]) << 8 + Int(body[offset + 1])
        guard end <= body.count else { throw .malformed("a string runs past the packet") }
        return end
    }

    private static func insertProperties(_ body: inout [UInt8], after offset: Int) throws(MQTTError) {
        guard offset <= body.count else { throw .malformed("the packet is too short") }
        body.insert(0, at: offset)
    }
}
