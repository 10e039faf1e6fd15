/// CONNECT: the first packet a client sends, naming itself and its session.
public struct Connect: ControlPacket {
    public static let packetType = PacketType.connect
    /// The protocol name this module speaks.
    public static let protocolName = "MQTT"
    /// The protocol level (version) of MQTT 5.
    public static let protocolLevel: UInt8 = 5

    /// The Client Identifier; may be empty, then the server assigns one.
    public var clientIdentifier: String
    /// Whether to start a new session rather than resume one.
    public var cleanStart: Bool
    /// Seconds between control packets the client promises; 0 turns keep alive off.
    public var keepAlive: UInt16
    /// The user name; the IM contract puts the app key here.
    public var userName: String?
    /// The password as binary data; the IM contract puts the token here (`Array(token.utf8)`).
    public var password: [UInt8]?
    public var will: Will?
    /// Allowed: session expiry interval, receive maximum, maximum packet size, topic alias maximum,
    /// request response/problem information, authentication method/data, user properties.
    public var properties: Properties

    public init(
        clientIdentifier: String,
        cleanStart: Bool = true,
        keepAlive: UInt16 = 60,
        userName: String? = nil,
        password: [UInt8]? = nil,
        will: Will? = nil,
        properties: Properties = []
    ) {
        self.clientIdentifier = clientIdentifier
        self.cleanStart = cleanStart
        self.keepAlive = keepAlive
        self.userName = userName
        self.password = password
        self.will = will
        self.properties = properties
    }
}

/// The will message a server publishes when a connection ends without DISCONNECT 0x00.
public struct Will: Hashable, Sendable {
    public var topic: String
    public var payload: [UInt8]
    public var qos: QoS
    public var retain: Bool
    /// Allowed: will delay interval, payload format indicator, message expiry interval,
    /// content type, response topic, correlation data, user properties.
    public var properties: Properties

    public init(topic: String, payload: [UInt8], qos: QoS = .atMostOnce, retain: Bool = false, properties: Properties = []) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
        self.properties = properties
    }
}
