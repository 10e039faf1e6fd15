/// Marks which packet type a generic packet struct stands for, such as
/// `PublishAcknowledgement<PubAckKind>` (alias `PubAck`).
public protocol PacketKind: Hashable, Sendable {
    static var packetType: PacketType { get }
}

public enum PubAckKind: PacketKind {
    public static var packetType: PacketType { .puback }
}

public enum PubRecKind: PacketKind {
    public static var packetType: PacketType { .pubrec }
}

public enum PubRelKind: PacketKind {
    public static var packetType: PacketType { .pubrel }
}

public enum PubCompKind: PacketKind {
    public static var packetType: PacketType { .pubcomp }
}

public enum SubAckKind: PacketKind {
    public static var packetType: PacketType { .suback }
}

public enum UnsubAckKind: PacketKind {
    public static var packetType: PacketType { .unsuback }
}

/// PUBACK: acknowledges a QoS 1 PUBLISH.
public typealias PubAck = PublishAcknowledgement<PubAckKind>
/// PUBREC: the first answer to a QoS 2 PUBLISH.
public typealias PubRec = PublishAcknowledgement<PubRecKind>
/// PUBREL: releases a QoS 2 message after PUBREC.
public typealias PubRel = PublishAcknowledgement<PubRelKind>
/// PUBCOMP: completes a QoS 2 exchange.
public typealias PubComp = PublishAcknowledgement<PubCompKind>
/// SUBACK: the answer to SUBSCRIBE; each code is the granted QoS or a failure.
public typealias SubAck = SubscriptionAcknowledgement<SubAckKind>
/// UNSUBACK: the answer to UNSUBSCRIBE.
public typealias UnsubAck = SubscriptionAcknowledgement<UnsubAckKind>
