/// PUBLISH: an application message, in either direction.
public struct Publish: ControlPacket {
    public static let packetType = PacketType.publish

    /// The topic name; may be empty when `properties.topicAlias` stands for it.
    public var topic: String
    public var payload: [UInt8]
    public var qos: QoS
    public var retain: Bool
    /// Set on a resend of a QoS 1 or 2 message; never with QoS 0.
    public var dup: Bool
    /// Non-zero for QoS 1 and 2; ignored (and decoded as 0) for QoS 0.
    public var packetIdentifier: UInt16
    /// Allowed: payload format indicator, message expiry interval, topic alias, response topic,
    /// correlation data, content type, subscription identifiers (server to client), user properties.
    public var properties: Properties

    public init(
        topic: String,
        payload: [UInt8],
        qos: QoS = .atMostOnce,
        packetIdentifier: UInt16 = 0,
        retain: Bool = false,
        dup: Bool = false,
        properties: Properties = []
    ) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.packetIdentifier = packetIdentifier
        self.retain = retain
        self.dup = dup
        self.properties = properties
    }

    public var fixedHeaderFlags: UInt8 {
        (dup ? 0b1000 : 0) | qos.rawValue << 1 | (retain ? 1 : 0)
    }

    public static func decodeBody(from reader: inout ByteReader, flags: UInt8) throws(MQTTError) -> Publish {
        guard let qos = QoS(rawValue: (flags >> 1) & 0x03) else { throw .malformed("QoS is 3") }
        let dup = flags & 0b1000 != 0
        if dup && qos == .atMostOnce { throw .malformed("DUP is set on a QoS 0 message") }
        let topic = try reader.readString()
        let packetIdentifier = qos == .atMostOnce ? 0 : try reader.readPacketIdentifier()
        let properties = try Properties.decode(from: &reader, in: .publish)
        if topic.isEmpty {
            guard properties.topicAlias != nil else { throw .protocolError("topic name is empty and there is no topic alias") }
        } else {
            do throws(TopicError) {
                try Topic.validateName(topic)
            } catch {
                throw .protocolError(error.message)
            }
        }
        return Publish(
            topic: topic, payload: reader.readRemainingBytes(), qos: qos, packetIdentifier: packetIdentifier,
            retain: flags & 1 != 0, dup: dup, properties: properties)
    }

    public func encodeBody(into writer: inout ByteWriter) {
        writer.writeString(topic)
        if qos != .atMostOnce { writer.writeUInt16(packetIdentifier) }
        properties.encode(into: &writer)
        writer.writeBytes(payload)
    }
}
