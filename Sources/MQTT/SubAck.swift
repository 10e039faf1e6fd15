/// SUBACK: the server's answer to SUBSCRIBE; each code is the granted QoS or a failure.
public struct SubAck: SubscriptionAcknowledgement {
    public static let packetType = PacketType.suback

    public var packetIdentifier: UInt16
    public var reasonCodes: [ReasonCode]
    public var properties: Properties

    public init(packetIdentifier: UInt16, reasonCodes: [ReasonCode], properties: Properties = []) {
        self.packetIdentifier = packetIdentifier
        self.reasonCodes = reasonCodes
        self.properties = properties
    }
}
