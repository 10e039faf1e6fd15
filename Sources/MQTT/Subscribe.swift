/// SUBSCRIBE: asks the server for messages on one or more topic filters.
///
/// Decoding checks the options but not the filters' wildcard rules, so that a server
/// can refuse one bad filter with 0x8F in its SUBACK: use `Topic.validateFilter`.
public struct Subscribe: ControlPacket {
    public static let packetType = PacketType.subscribe

    /// One topic filter and its options.
    public struct Subscription: Hashable, Sendable {
        public var topicFilter: String
        public var options: SubscriptionOptions

        public init(_ topicFilter: String, options: SubscriptionOptions = SubscriptionOptions()) {
            self.topicFilter = topicFilter
            self.options = options
        }
    }

    public var packetIdentifier: UInt16
    /// At least one.
    public var subscriptions: [Subscription]
    /// Allowed: one subscription identifier, user properties.
    public var properties: Properties

    public init(packetIdentifier: UInt16, subscriptions: [Subscription], properties: Properties = []) {
        self.packetIdentifier = packetIdentifier
        self.subscriptions = subscriptions
        self.properties = properties
    }

    public static func decodeBody(from reader: inout ByteReader, flags: UInt8) throws(MQTTError) -> Subscribe {
        let packetIdentifier = try reader.readPacketIdentifier()
        let properties = try Properties.decode(from: &reader, in: .subscribe)
        var subscriptions: [Subscription] = []
        while !reader.isAtEnd {
            let filter = try reader.readString()
            let options = try SubscriptionOptions(byte: try reader.readUInt8())
            if options.noLocal && Topic.sharedSubscription(filter) != nil {
                throw .protocolError("no local is set on shared subscription \"\(filter)\"")
            }
            subscriptions.append(Subscription(filter, options: options))
        }
        guard !subscriptions.isEmpty else { throw .protocolError("no topic filters") }
        return Subscribe(packetIdentifier: packetIdentifier, subscriptions: subscriptions, properties: properties)
    }

    public func encodeBody(into writer: inout ByteWriter) {
        writer.writeUInt16(packetIdentifier)
        properties.encode(into: &writer)
        for subscription in subscriptions {
            writer.writeString(subscription.topicFilter)
            writer.writeUInt8(subscription.options.byte)
        }
    }
}
