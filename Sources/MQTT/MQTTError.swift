/// Why bytes could not be decoded as MQTT 5, with the reason code to answer it with.
///
/// A receiver that gets one of these sends CONNACK or DISCONNECT with `reasonCode`
/// (if it can) and closes the connection: MQTT has no way to skip a bad packet.
public struct MQTTError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The class of failure; it decides the reason code.
    public enum Kind: Hashable, Sendable {
        /// The bytes cannot be parsed (0x81).
        case malformedPacket
        /// A length runs past the end of the bytes (0x81 inside a whole packet).
        ///
        /// When decoding a stream by hand this means "need more bytes";
        /// `PacketDecoder` frames packets first, so it never reports this kind.
        case truncated
        /// The packet parses but holds data the protocol forbids (0x82).
        case protocolError
        /// The packet is larger than the receiver accepts (0x95).
        case packetTooLarge
        /// CONNECT names a protocol other than MQTT 5 (0x84).
        case unsupportedProtocolVersion
    }

    /// The class of failure, which decides `reasonCode`.
    public var kind: Kind
    /// What was wrong, for a person reading a log.
    public var message: String
    /// The packet being decoded when the error was found, when known.
    public var packetType: PacketType?

    public init(_ kind: Kind, _ message: String, packetType: PacketType? = nil) {
        self.kind = kind
        self.message = message
        self.packetType = packetType
    }

    /// The reason code for the CONNACK or DISCONNECT that answers this error.
    public var reasonCode: ReasonCode {
        switch kind {
        case .malformedPacket, .truncated: return .malformedPacket
        case .protocolError: return .protocolError
        case .packetTooLarge: return .packetTooLarge
        case .unsupportedProtocolVersion: return .unsupportedProtocolVersion
        }
    }

    public var description: String {
        let location = packetType.map { " in \($0)" } ?? ""
        return "\(reasonCode.name)\(location) (\(reasonCode.hex)): \(message)"
    }

    static func malformed(_ message: String) -> MQTTError { MQTTError(.malformedPacket, message) }
    static func protocolError(_ message: String) -> MQTTError { MQTTError(.protocolError, message) }
}

extension MQTTError {
    /// The same failure as a framing error seen by a transport.
    public init(_ frameError: FrameError) {
        switch frameError {
        case .variableIntegerTooLong:
            self.init(.malformedPacket, frameError.description)
        case .packetTooLarge:
            self.init(.packetTooLarge, frameError.description)
        }
    }
}

extension FrameError {
    /// The reason code for the DISCONNECT that answers this error.
    public var reasonCode: ReasonCode { MQTTError(self).reasonCode }
}
