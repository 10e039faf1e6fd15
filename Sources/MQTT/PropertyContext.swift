/// Where a property may appear: one bit per packet type, plus the will properties of CONNECT.
public struct PropertyContext: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The properties of `packetType`'s variable header.
    public init(_ packetType: PacketType) { rawValue = 1 << packetType.rawValue }

    public static let connect = PropertyContext(.connect)
    public static let connack = PropertyContext(.connack)
    public static let publish = PropertyContext(.publish)
    public static let puback = PropertyContext(.puback)
    public static let pubrec = PropertyContext(.pubrec)
    public static let pubrel = PropertyContext(.pubrel)
    public static let pubcomp = PropertyContext(.pubcomp)
    public static let subscribe = PropertyContext(.subscribe)
    public static let suback = PropertyContext(.suback)
    public static let unsubscribe = PropertyContext(.unsubscribe)
    public static let unsuback = PropertyContext(.unsuback)
    public static let disconnect = PropertyContext(.disconnect)
    public static let auth = PropertyContext(.auth)
    /// The Will Properties in the CONNECT payload.
    public static let will = PropertyContext(rawValue: 1)

    /// Every single context: each packet type that has properties, and the will.
    public static let all: [PropertyContext] = [.will] + PacketType.allCases
        .filter { $0 != .pingreq && $0 != .pingresp }
        .map(PropertyContext.init)

    /// "will properties" or the packet name, for one context; members joined by "/" otherwise.
    public var description: String {
        var names: [String] = []
        if contains(.will) { names.append("will properties") }
        for type in PacketType.allCases where contains(PropertyContext(type)) {
            names.append(type.description)
        }
        return names.joined(separator: "/")
    }
}
