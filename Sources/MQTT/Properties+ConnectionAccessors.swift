// Typed views of the properties of CONNECT, CONNACK, DISCONNECT and AUTH.
extension Properties {
    /// Seconds the session outlives the connection (absent means 0).
    public var sessionExpiryInterval: UInt32? {
        get { value(.sessionExpiryInterval, Self.fourByte) }
        set { set(.sessionExpiryInterval, newValue, Property.sessionExpiryInterval) }
    }
    public var receiveMaximum: UInt16? {
        get { value(.receiveMaximum, Self.twoByte) }
        set { set(.receiveMaximum, newValue, Property.receiveMaximum) }
    }
    public var maximumPacketSize: UInt32? {
        get { value(.maximumPacketSize, Self.fourByte) }
        set { set(.maximumPacketSize, newValue, Property.maximumPacketSize) }
    }
    public var topicAliasMaximum: UInt16? {
        get { value(.topicAliasMaximum, Self.twoByte) }
        set { set(.topicAliasMaximum, newValue, Property.topicAliasMaximum) }
    }
    public var requestProblemInformation: Bool? {
        get { value(.requestProblemInformation, Self.flag) }
        set { set(.requestProblemInformation, newValue, Property.requestProblemInformation) }
    }
    public var requestResponseInformation: Bool? {
        get { value(.requestResponseInformation, Self.flag) }
        set { set(.requestResponseInformation, newValue, Property.requestResponseInformation) }
    }
    public var authenticationMethod: String? {
        get { value(.authenticationMethod, Self.string) }
        set { set(.authenticationMethod, newValue, Property.authenticationMethod) }
    }
    public var authenticationData: [UInt8]? {
        get { value(.authenticationData, Self.binary) }
        set { set(.authenticationData, newValue, Property.authenticationData) }
    }
    public var assignedClientIdentifier: String? {
        get { value(.assignedClientIdentifier, Self.string) }
        set { set(.assignedClientIdentifier, newValue, Property.assignedClientIdentifier) }
    }
    /// Seconds of keep alive the server imposes, overriding the client's.
    public var serverKeepAlive: UInt16? {
        get { value(.serverKeepAlive, Self.twoByte) }
        set { set(.serverKeepAlive, newValue, Property.serverKeepAlive) }
    }
    public var responseInformation: String? {
        get { value(.responseInformation, Self.string) }
        set { set(.responseInformation, newValue, Property.responseInformation) }
    }
    /// Another server to use (with 0x9C use another server or 0x9D server moved).
    public var serverReference: String? {
        get { value(.serverReference, Self.string) }
        set { set(.serverReference, newValue, Property.serverReference) }
    }
    public var maximumQoS: QoS? {
        get { value(.maximumQoS, Self.byte).flatMap(QoS.init(rawValue:)) }
        set { set(.maximumQoS, newValue, Property.maximumQoS) }
    }
    public var retainAvailable: Bool? {
        get { value(.retainAvailable, Self.flag) }
        set { set(.retainAvailable, newValue, Property.retainAvailable) }
    }
    public var wildcardSubscriptionAvailable: Bool? {
        get { value(.wildcardSubscriptionAvailable, Self.flag) }
        set { set(.wildcardSubscriptionAvailable, newValue, Property.wildcardSubscriptionAvailable) }
    }
    public var subscriptionIdentifierAvailable: Bool? {
        get { value(.subscriptionIdentifierAvailable, Self.flag) }
        set { set(.subscriptionIdentifierAvailable, newValue, Property.subscriptionIdentifierAvailable) }
    }
    public var sharedSubscriptionAvailable: Bool? {
        get { value(.sharedSubscriptionAvailable, Self.flag) }
        set { set(.sharedSubscriptionAvailable, newValue, Property.sharedSubscriptionAvailable) }
    }
}
