// Typed views of single properties. Setting nil removes the property; setting a
// value replaces it in place (see `Properties.replace(with:)`).
extension Properties {
    func value<Value>(_ identifier: PropertyIdentifier, _ extract: (PropertyValue) -> Value?) -> Value? {
        first(identifier).flatMap(extract)
    }

    mutating func set<Value>(_ identifier: PropertyIdentifier, _ value: Value?, _ make: (Value) -> Property) {
        if let value { replace(with: make(value)) } else { removeAll(identifier) }
    }

    static func fourByte(_ value: PropertyValue) -> UInt32? {
        if case .fourByteInteger(let number) = value { return number }
        return nil
    }
    static func twoByte(_ value: PropertyValue) -> UInt16? {
        if case .twoByteInteger(let number) = value { return number }
        return nil
    }
    static func string(_ value: PropertyValue) -> String? {
        if case .string(let string) = value { return string }
        return nil
    }
    static func flag(_ value: PropertyValue) -> Bool? {
        if case .byte(let byte) = value { return byte != 0 }
        return nil
    }

    static func binary(_ value: PropertyValue) -> [UInt8]? {
        if case .binary(let bytes) = value { return bytes }
        return nil
    }
    static func byte(_ value: PropertyValue) -> UInt8? {
        if case .byte(let byte) = value { return byte }
        return nil
    }

    // MARK: PUBLISH and will properties

    public var payloadFormatIndicator: PayloadFormatIndicator? {
        get { value(.payloadFormatIndicator, Self.byte).map(PayloadFormatIndicator.init(rawValue:)) }
        set { set(.payloadFormatIndicator, newValue, Property.payloadFormatIndicator) }
    }
    /// Seconds the message stays deliverable.
    public var messageExpiryInterval: UInt32? {
        get { value(.messageExpiryInterval, Self.fourByte) }
        set { set(.messageExpiryInterval, newValue, Property.messageExpiryInterval) }
    }
    public var contentType: String? {
        get { value(.contentType, Self.string) }
        set { set(.contentType, newValue, Property.contentType) }
    }
    public var responseTopic: String? {
        get { value(.responseTopic, Self.string) }
        set { set(.responseTopic, newValue, Property.responseTopic) }
    }
    public var correlationData: [UInt8]? {
        get { value(.correlationData, Self.binary) }
        set { set(.correlationData, newValue, Property.correlationData) }
    }
    public var topicAlias: UInt16? {
        get { value(.topicAlias, Self.twoByte) }
        set { set(.topicAlias, newValue, Property.topicAlias) }
    }
    /// Seconds the server waits before publishing the will (will properties only).
    public var willDelayInterval: UInt32? {
        get { value(.willDelayInterval, Self.fourByte) }
        set { set(.willDelayInterval, newValue, Property.willDelayInterval) }
    }
    /// Every Subscription Identifier in order: one in SUBSCRIBE, any number in a PUBLISH from the server.
    public var subscriptionIdentifiers: [UInt32] {
        get {
            all(.subscriptionIdentifier).compactMap {
                if case .variableByteInteger(let value) = $0 { return value }
                return nil
            }
        }
        set {
            removeAll(.subscriptionIdentifier)
            for identifier in newValue { append(.subscriptionIdentifier(identifier)) }
        }
    }

    // MARK: Any packet

    public var reasonString: String? {
        get { value(.reasonString, Self.string) }
        set { set(.reasonString, newValue, Property.reasonString) }
    }
    /// Every User Property in order, repeats included. Setting replaces them all.
    public var userProperties: [UserProperty] {
        get {
            elements.compactMap {
                if case .stringPair(let name, let value) = $0.value { return UserProperty(name, value) }
                return nil
            }
        }
        set {
            removeAll(.userProperty)
            for pair in newValue { append(.userProperty(pair.name, pair.value)) }
        }
    }

    /// The value of the first User Property called `name`.
    public func userProperty(_ name: String) -> String? {
        for property in elements {
            if case .stringPair(name, let value) = property.value { return value }
        }
        return nil
    }

    /// The values of every User Property called `name`, in order.
    public func userPropertyValues(_ name: String) -> [String] {
        userProperties.filter { $0.name == name }.map(\.value)
    }

    /// Adds a User Property after the existing properties.
    public mutating func appendUserProperty(_ name: String, _ value: String) {
        append(.userProperty(name, value))
    }
}
