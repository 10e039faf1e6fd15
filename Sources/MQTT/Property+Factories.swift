extension Property {
    public static func payloadFormatIndicator(_ format: PayloadFormatIndicator) -> Property {
        Property(unchecked: .payloadFormatIndicator, .byte(format.rawValue))
    }
    public static func messageExpiryInterval(_ seconds: UInt32) -> Property {
        Property(unchecked: .messageExpiryInterval, .fourByteInteger(seconds))
    }
    public static func contentType(_ type: String) -> Property {
        Property(unchecked: .contentType, .string(type))
    }
    public static func responseTopic(_ topic: String) -> Property {
        Property(unchecked: .responseTopic, .string(topic))
    }
    public static func correlationData(_ data: [UInt8]) -> Property {
        Property(unchecked: .correlationData, .binary(data))
    }
    public static func subscriptionIdentifier(_ identifier: UInt32) -> Property {
        Property(unchecked: .subscriptionIdentifier, .variableByteInteger(identifier))
    }
    public static func sessionExpiryInterval(_ seconds: UInt32) -> Property {
        Property(unchecked: .sessionExpiryInterval, .fourByteInteger(seconds))
    }
    public static func assignedClientIdentifier(_ identifier: String) -> Property {
        Property(unchecked: .assignedClientIdentifier, .string(identifier))
    }
    public static func serverKeepAlive(_ seconds: UInt16) -> Property {
        Property(unchecked: .serverKeepAlive, .twoByteInteger(seconds))
    }
    public static func authenticationMethod(_ method: String) -> Property {
        Property(unchecked: .authenticationMethod, .string(method))
    }
    public static func authenticationData(_ data: [UInt8]) -> Property {
        Property(unchecked: .authenticationData, .binary(data))
    }
    public static func requestProblemInformation(_ request: Bool) -> Property {
        Property(unchecked: .requestProblemInformation, .byte(request ? 1 : 0))
    }
    public static func willDelayInterval(_ seconds: UInt32) -> Property {
        Property(unchecked: .willDelayInterval, .fourByteInteger(seconds))
    }
    public static func requestResponseInformation(_ request: Bool) -> Property {
        Property(unchecked: .requestResponseInformation, .byte(request ? 1 : 0))
    }
    public static func responseInformation(_ information: String) -> Property {
        Property(unchecked: .responseInformation, .string(information))
    }
    public static func serverReference(_ reference: String) -> Property {
        Property(unchecked: .serverReference, .string(reference))
    }
    public static func reasonString(_ reason: String) -> Property {
        Property(unchecked: .reasonString, .string(reason))
    }
    public static func receiveMaximum(_ maximum: UInt16) -> Property {
        Property(unchecked: .receiveMaximum, .twoByteInteger(maximum))
    }
    public static func topicAliasMaximum(_ maximum: UInt16) -> Property {
        Property(unchecked: .topicAliasMaximum, .twoByteInteger(maximum))
    }
    public static func topicAlias(_ alias: UInt16) -> Property {
        Property(unchecked: .topicAlias, .twoByteInteger(alias))
    }
    public static func maximumQoS(_ qos: QoS) -> Property {
        Property(unchecked: .maximumQoS, .byte(qos.rawValue))
    }
    public static func retainAvailable(_ available: Bool) -> Property {
        Property(unchecked: .retainAvailable, .byte(available ? 1 : 0))
    }
    public static func userProperty(_ name: String, _ value: String) -> Property {
        Property(unchecked: .userProperty, .stringPair(name: name, value: value))
    }
    public static func maximumPacketSize(_ bytes: UInt32) -> Property {
        Property(unchecked: .maximumPacketSize, .fourByteInteger(bytes))
    }
    public static func wildcardSubscriptionAvailable(_ available: Bool) -> Property {
        Property(unchecked: .wildcardSubscriptionAvailable, .byte(available ? 1 : 0))
    }
    public static func subscriptionIdentifierAvailable(_ available: Bool) -> Property {
        Property(unchecked: .subscriptionIdentifierAvailable, .byte(available ? 1 : 0))
    }
    public static func sharedSubscriptionAvailable(_ available: Bool) -> Property {
        Property(unchecked: .sharedSubscriptionAvailable, .byte(available ? 1 : 0))
    }
}

/// What a PUBLISH payload holds, as the Payload Format Indicator says.
public struct PayloadFormatIndicator: RawRepresentable, Hashable, Sendable {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Unspecified bytes (0), the default when the property is absent.
    public static let unspecified = PayloadFormatIndicator(rawValue: 0)
    /// UTF-8 encoded character data (1).
    public static let utf8 = PayloadFormatIndicator(rawValue: 1)
}

/// A User Property: a name-value pair of strings; names may repeat.
public struct UserProperty: Hashable, Sendable, CustomStringConvertible {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    public var description: String { "\(name)=\(value)" }
}
