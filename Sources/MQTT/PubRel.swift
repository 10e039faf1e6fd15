/// PUBREL: releases a QoS 2 message after PUBREC.
public struct PubRel: PublishAcknowledgement {
    public static let packetType = PacketType.pubrel

    public var packetIdentifier: UInt16
    public var reasonCode: ReasonCode
    public var properties: Properties

    public init(packetIdentifier: UInt16, reasonCode: ReasonCode = .success, properties: Properties = []) {
        self.packetIdentifier = packetIdentifier
        self.reasonCode = reasonCode
        self.properties = properties
    }
}
