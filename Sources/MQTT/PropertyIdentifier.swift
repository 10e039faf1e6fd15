/// The identifier of an MQTT 5 property, with what the standard says about it.
///
/// The standard encodes identifiers as variable byte integers, but all 27 fit in one byte.
public struct PropertyIdentifier: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let payloadFormatIndicator = PropertyIdentifier(rawValue: 0x01)
    public static let messageExpiryInterval = PropertyIdentifier(rawValue: 0x02)
    public static let contentType = PropertyIdentifier(rawValue: 0x03)
    public static let responseTopic = PropertyIdentifier(rawValue: 0x08)
    public static let correlationData = PropertyIdentifier(rawValue: 0x09)
    public static let subscriptionIdentifier = PropertyIdentifier(rawValue: 0x0B)
    public static let sessionExpiryInterval = PropertyIdentifier(rawValue: 0x11)
    public static let assignedClientIdentifier = PropertyIdentifier(rawValue: 0x12)
    public static let serverKeepAlive = PropertyIdentifier(rawValue: 0x13)
    public static let authenticationMethod = PropertyIdentifier(rawValue: 0x15)
    public static let authenticationData = PropertyIdentifier(rawValue: 0x16)
    public static let requestProblemInformation = PropertyIdentifier(rawValue: 0x17)
    public static let willDelayInterval = PropertyIdentifier(rawValue: 0x18)
    public static let requestResponseInformation = PropertyIdentifier(rawValue: 0x19)
    public static let responseInformation = PropertyIdentifier(rawValue: 0x1A)
    public static let serverReference = PropertyIdentifier(rawValue: 0x1C)
    public static let reasonString = PropertyIdentifier(rawValue: 0x1F)
    public static let receiveMaximum = PropertyIdentifier(rawValue: 0x21)
    public static let topicAliasMaximum = PropertyIdentifier(rawValue: 0x22)
    public static let topicAlias = PropertyIdentifier(rawValue: 0x23)
    public static let maximumQoS = PropertyIdentifier(rawValue: 0x24)
    public static let retainAvailable = PropertyIdentifier(rawValue: 0x25)
    public static let userProperty = PropertyIdentifier(rawValue: 0x26)
    public static let maximumPacketSize = PropertyIdentifier(rawValue: 0x27)
    public static let wildcardSubscriptionAvailable = PropertyIdentifier(rawValue: 0x28)
    public static let subscriptionIdentifierAvailable = PropertyIdentifier(rawValue: 0x29)
    public static let sharedSubscriptionAvailable = PropertyIdentifier(rawValue: 0x2A)

    /// What the standard says about one property (MQTT 5 table 2-4).
    public struct Definition: Sendable {
        /// The standard's name, such as "Session Expiry Interval".
        public let name: String
        public let valueType: PropertyValueType
        /// The packets (and will properties) it may appear in.
        public let contexts: PropertyContext
        /// Where it may appear more than once.
        public let repeatableIn: PropertyContext
    }

    /// What the standard says about this identifier, nil if it defines none.
    public var definition: Definition? {
        Int(rawValue) < Self.definitions.count ? Self.definitions[Int(rawValue)] : nil
    }

    /// All 27 properties, in identifier order.
    public static let allDefined: [PropertyIdentifier] = definitions.indices
        .filter { definitions[$0] != nil }
        .map { PropertyIdentifier(rawValue: UInt8($0)) }

    public var description: String {
        definition?.name ?? "unknown property 0x\(String(rawValue, radix: 16, uppercase: true))"
    }
}
