/// PUBACK: acknowledges a QoS 1 PUBLISH.
public struct PubAck: PublishAcknowledgement {
    public static let packetType = PacketType.puback

    public var packetIdentifier: UInt16
    public var reasonCode: ReasonCode
    public var properties: Properties

    public init(packetIdentifier: UInt16, reasonCode: ReasonCode = .success, properties: Properties = []) {
        self.packetIdentifier = packetIdentifier
        self.reasonCode = reasonCode
        self.properties = properties
    }
}
