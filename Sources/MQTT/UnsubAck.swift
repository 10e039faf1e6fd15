/// UNSUBACK: the server's answer to UNSUBSCRIBE.
public struct UnsubAck: SubscriptionAcknowledgement {
    public static let packetType = PacketType.unsuback

    public var packetIdentifier: UInt16
    public var reasonCodes: [ReasonCode]
    public var properties: Properties

    public init(packetIdentifier: UInt16, reasonCodes: [ReasonCode], properties: Properties = []) {
        self.packetIdentifier = packetIdentifier
        self.reasonCodes = reasonCodes
        self.properties = properties
    }
}
