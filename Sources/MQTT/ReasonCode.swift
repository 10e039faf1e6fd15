/// An MQTT 5 reason code: the one-byte outcome carried by acknowledgements,
/// CONNACK, DISCONNECT and AUTH.
///
/// A struct rather than an enum so that codes this module does not know survive decoding.
/// Values below 0x80 report success, 0x80 and above report failure.
public struct ReasonCode: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    /// Whether this code reports a failure (0x80 and above).
    public var isFailure: Bool { rawValue >= 0x80 }

    /// The granted QoS a SUBACK code stands for, nil for a failure code.
    public var grantedQoS: QoS? { isFailure ? nil : QoS(rawValue: rawValue) }

    /// The SUBACK code that grants `qos`.
    public static func granted(_ qos: QoS) -> ReasonCode { ReasonCode(qos.rawValue) }

    public static let success = ReasonCode(0x00)
    public static let normalDisconnection = ReasonCode(0x00)
    public static let grantedQoS0 = ReasonCode(0x00)
    public static let grantedQoS1 = ReasonCode(0x01)
    public static let grantedQoS2 = ReasonCode(0x02)
    public static let disconnectWithWillMessage = ReasonCode(0x04)
    public static let noMatchingSubscribers = ReasonCode(0x10)
    public static let noSubscriptionExisted = ReasonCode(0x11)
    public static let continueAuthentication = ReasonCode(0x18)
    public static let reAuthenticate = ReasonCode(0x19)
    public static let unspecifiedError = ReasonCode(0x80)
    public static let malformedPacket = ReasonCode(0x81)
    public static let protocolError = ReasonCode(0x82)
    public static let implementationSpecificError = ReasonCode(0x83)
    public static let unsupportedProtocolVersion = ReasonCode(0x84)
    public static let clientIdentifierNotValid = ReasonCode(0x85)
    public static let badUserNameOrPassword = ReasonCode(0x86)
    public static let notAuthorized = ReasonCode(0x87)
    public static let serverUnavailable = ReasonCode(0x88)
    public static let serverBusy = ReasonCode(0x89)
    public static let banned = ReasonCode(0x8A)
    public static let serverShuttingDown = ReasonCode(0x8B)
    public static let badAuthenticationMethod = ReasonCode(0x8C)
    public static let keepAliveTimeout = ReasonCode(0x8D)
    public static let sessionTakenOver = ReasonCode(0x8E)
    public static let topicFilterInvalid = ReasonCode(0x8F)
    public static let topicNameInvalid = ReasonCode(0x90)
    public static let packetIdentifierInUse = ReasonCode(0x91)
    public static let packetIdentifierNotFound = ReasonCode(0x92)
    public static let receiveMaximumExceeded = ReasonCode(0x93)
    public static let topicAliasInvalid = ReasonCode(0x94)
    public static let packetTooLarge = ReasonCode(0x95)
    public static let messageRateTooHigh = ReasonCode(0x96)
    public static let quotaExceeded = ReasonCode(0x97)
    public static let administrativeAction = ReasonCode(0x98)
    public static let payloadFormatInvalid = ReasonCode(0x99)
    public static let retainNotSupported = ReasonCode(0x9A)
    public static let qosNotSupported = ReasonCode(0x9B)
    public static let useAnotherServer = ReasonCode(0x9C)
    public static let serverMoved = ReasonCode(0x9D)
    public static let sharedSubscriptionsNotSupported = ReasonCode(0x9E)
    public static let connectionRateExceeded = ReasonCode(0x9F)
    public static let maximumConnectTime = ReasonCode(0xA0)
    public static let subscriptionIdentifiersNotSupported = ReasonCode(0xA1)
    public static let wildcardSubscriptionsNotSupported = ReasonCode(0xA2)
}
