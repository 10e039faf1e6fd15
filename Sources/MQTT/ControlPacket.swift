/// One kind of MQTT control packet, with its coding.
///
/// `decode(from:)` and `encode(into:)` handle a whole packet, fixed header included;
/// conforming types provide only the variable header and payload.
public protocol ControlPacket: Hashable, Sendable {
    static var packetType: PacketType { get }

    /// The low four bits of the first byte.
    var fixedHeaderFlags: UInt8 { get }

    /// Reads the variable header and payload.
    ///
    /// `reader` spans exactly the Remaining Length, and `flags` already passed
    /// `PacketType.requiredFlags`. Bytes left unread make the packet malformed.
    static func decodeBody(from reader: inout ByteReader, flags: UInt8) throws(MQTTError) -> Self

    /// Writes the variable header and payload.
    func encodeBody(into writer: inout ByteWriter)
}

extension ControlPacket {
    public var fixedHeaderFlags: UInt8 { Self.packetType.requiredFlags ?? 0 }

    /// Writes the whole packet, fixed header included.
    public func encode(into writer: inout ByteWriter) {
        writer.writeUInt8(Self.packetType.rawValue << 4 | fixedHeaderFlags)
        writer.writeWithLengthPrefix { encodeBody(into: &$0) }
    }

    /// The whole packet as bytes.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter()
        encode(into: &writer)
        return writer.bytes
    }

    /// Reads one whole packet of this type, fixed header included.
    ///
    /// On error `reader` is left where it was; `.truncated` means the packet is not all there yet.
    public static func decode(from reader: inout ByteReader) throws(MQTTError) -> Self {
        var copy = reader
        let header = try FixedHeader.read(from: &copy)
        guard header.type == packetType else {
            throw MQTTError(.protocolError, "expected \(packetType), found \(header.type)", packetType: header.type)
        }
        let packet = try header.decode { (body: inout ByteReader) throws(MQTTError) in
            try decodeBody(from: &body, flags: header.flags)
        }
        reader = copy
        return packet
    }
}

/// The first byte and Remaining Length of a packet, with a reader over the rest.
struct FixedHeader {
    let type: PacketType
    let flags: UInt8
    let body: ByteReader

    static func read(from reader: inout ByteReader) throws(MQTTError) -> FixedHeader {
        let first = try reader.readUInt8()
        guard let type = PacketType(rawValue: first >> 4) else {
            throw .malformed("packet type 0 is reserved")
        }
        let flags = first & 0x0F
        if let required = type.requiredFlags, flags != required {
            throw MQTTError(.malformedPacket, "fixed header flags are \(binary(flags)), must be \(binary(required))", packetType: type)
        }
        do throws(MQTTError) {
            let length = try reader.readVariableByteInteger()
            return FixedHeader(type: type, flags: flags, body: try reader.readSubreader(Int(length)))
        } catch {
            throw MQTTError(error.kind, "remaining length: \(error.message)", packetType: type)
        }
    }

    /// Runs `decodeBody` over the whole body: a length running past the end, or bytes
    /// left over, make the packet malformed, and errors name the packet type.
    func decode<Packet>(_ decodeBody: (inout ByteReader) throws(MQTTError) -> Packet) throws(MQTTError) -> Packet {
        var reader = body
        do throws(MQTTError) {
            let packet = try decodeBody(&reader)
            guard reader.isAtEnd else {
                throw MQTTError.malformed("\(reader.remainingCount) unexpected bytes at the end")
            }
            return packet
        } catch {
            var error = error
            if error.kind == .truncated {
                error = .malformed("a length runs past the end of the packet: \(error.message)")
            }
            error.packetType = type
            throw error
        }
    }

    private static func binary(_ flags: UInt8) -> String {
        let digits = String(flags, radix: 2)
        return "0b" + String(repeating: "0", count: 4 - digits.count) + digits
    }
}

extension ByteReader {
    /// Reads a Packet Identifier, which must not be 0 (a protocol error).
    mutating func readPacketIdentifier() throws(MQTTError) -> UInt16 {
        let identifier = try readUInt16()
        guard identifier != 0 else { throw .protocolError("packet identifier is 0") }
        return identifier
    }
}
