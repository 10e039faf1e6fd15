/// AUTH: one step of an extended authentication exchange.
public struct Auth: ControlPacket {
    public static let packetType = PacketType.auth

    /// 0x00 success, 0x18 continue authentication or 0x19 re-authenticate.
    public var reasonCode: ReasonCode
    /// Allowed: authentication method and data, reason string, user properties.
    public var properties: Properties

    public init(reasonCode: ReasonCode = .success, properties: Properties = []) {
        self.reasonCode = reasonCode
        self.properties = properties
    }

    /// Remaining Length 0 means success without properties.
    public static func decodeBody(from reader: inout ByteReader, flags: UInt8) throws(MQTTError) -> Auth {
        let (reasonCode, properties) = try ReasonCodeAndProperties.decode(from: &reader, in: .auth)
        return Auth(reasonCode: reasonCode, properties: properties)
    }

    /// Writes `F0 00` for success without properties, else the reason code and properties.
    public func encodeBody(into writer: inout ByteWriter) {
        ReasonCodeAndProperties.encode(reasonCode, properties, mayOmitProperties: false, into: &writer)
    }
}
