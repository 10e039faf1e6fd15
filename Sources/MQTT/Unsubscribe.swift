/// UNSUBSCRIBE: drops one or more subscriptions.
///
/// Like SUBSCRIBE, decoding leaves the filters' wildcard rules to the receiver.
public struct Unsubscribe: ControlPacket {
    public static let packetType = PacketType.unsubscribe

    public var packetIdentifier: UInt16
    /// At least one.
    public var topicFilters: [String]
    /// Allowed: user properties.
    public var properties: Properties

    public init(packetIdentifier: UInt16, topicFilters: [String], properties: Properties = []) {
        self.packetIdentifier = packetIdentifier
        self.topicFilters = topicFilters
        self.properties = properties
    }

    public static func decodeBody(from reader: inout ByteReader, flags: UInt8) throws(MQTTError) -> Unsubscribe {
        let packetIdentifier = try reader.readPacketIdentifier()
        let properties = try Properties.decode(from: &reader, in: .unsubscribe)
        var topicFilters: [String] = []
        while !reader.isAtEnd {
            topicFilters.append(try reader.readString())
        }
        guard !topicFilters.isEmpty else { throw .protocolError("no topic filters") }
        return Unsubscribe(packetIdentifier: packetIdentifier, topicFilters: topicFilters, properties: properties)
    }

    public func encodeBody(into writer: inout ByteWriter) {
        writer.writeUInt16(packetIdentifier)
        properties.encode(into: &writer)
        for filter in topicFilters { writer.writeString(filter) }
    }
}
