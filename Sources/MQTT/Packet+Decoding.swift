extension Packet {
    /// Reads one whole packet of any type, fixed header included.
    ///
    /// On error `reader` is left where it was; `.truncated` means the packet is not all there yet.
    public static func decode(from reader: inout ByteReader) throws(MQTTError) -> Packet {
        var copy = reader
        let header = try FixedHeader.read(from: &copy)
        let packet = try header.decode { (body: inout ByteReader) throws(MQTTError) in
            try decodeBody(of: header.type, flags: header.flags, from: &body)
        }
        reader = copy
        return packet
    }

    /// Decodes a frame that holds exactly one whole packet, as a transport hands it over.
    ///
    /// A frame shorter than its Remaining Length says, or longer, is malformed.
    public init(frame: [UInt8]) throws(MQTTError) {
        try self.init(frame: frame[...])
    }

    /// Decodes a frame that holds exactly one whole packet, as a transport hands it over.
    public init(frame: ArraySlice<UInt8>) throws(MQTTError) {
        var reader = ByteReader(frame)
        do {
            self = try Packet.decode(from: &reader)
        } catch where error.kind == .truncated {
            throw MQTTError(.malformedPacket, "frame is shorter than its remaining length: \(error.message)", packetType: error.packetType)
        }
        guard reader.isAtEnd else {
            throw MQTTError(.malformedPacket, "frame has \(reader.remainingCount) bytes after the packet", packetType: type)
        }
    }

    private static func decodeBody(of type: PacketType, flags: UInt8, from reader: inout ByteReader) throws(MQTTError) -> Packet {
        switch type {
        case .connect: return .connect(try Connect.decodeBody(from: &reader, flags: flags))
        case .connack: return .connack(try ConnAck.decodeBody(from: &reader, flags: flags))
        case .publish: return .publish(try Publish.decodeBody(from: &reader, flags: flags))
        case .puback: return .puback(try PubAck.decodeBody(from: &reader, flags: flags))
        case .pubrec: return .pubrec(try PubRec.decodeBody(from: &reader, flags: flags))
        case .pubrel: return .pubrel(try PubRel.decodeBody(from: &reader, flags: flags))
        case .pubcomp: return .pubcomp(try PubComp.decodeBody(from: &reader, flags: flags))
        case .subscribe: return .subscribe(try Subscribe.decodeBody(from: &reader, flags: flags))
        case .suback: return .suback(try SubAck.decodeBody(from: &reader, flags: flags))
        case .unsubscribe: return .unsubscribe(try Unsubscribe.decodeBody(from: &reader, flags: flags))
        case .unsuback: return .unsuback(try UnsubAck.decodeBody(from: &reader, flags: flags))
        case .pingreq: return .pingreq
        case .pingresp: return .pingresp
        case .disconnect: return .disconnect(try Disconnect.decodeBody(from: &reader, flags: flags))
        case .auth: return .auth(try Auth.decodeBody(from: &reader, flags: flags))
        }
    }

    /// Checks that this packet can be sent: every value fits its field, the packet fits
    /// `maximumPacketSize`, and it passes every check decoding makes.
    ///
    /// Use it on packets built from user input; `encode` stops the program on values that do not fit.
    public func validate(maximumPacketSize: Int = PacketDecoder.largestPacketSize) throws(MQTTError) {
        var writer = ByteWriter(capacity: 0, checking: true)
        encode(into: &writer)
        if let overflow = writer.overflow {
            throw MQTTError(.malformedPacket, "cannot be encoded: \(overflow)", packetType: type)
        }
        guard writer.count <= maximumPacketSize else {
            throw MQTTError(.packetTooLarge, "packet of \(writer.count) bytes exceeds the maximum packet size of \(maximumPacketSize) bytes", packetType: type)
        }
        _ = try Packet(frame: writer.bytes)
    }
}
