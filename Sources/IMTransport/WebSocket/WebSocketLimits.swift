/// How large a WebSocket peer's frames and messages may be; larger ones close the
/// connection with 1009 (message too big) before their payload is buffered.
public struct WebSocketLimits: Hashable, Sendable {
    /// The payload of one frame, in bytes.
    public var maxFrameSize: Int
    /// The payloads of one message (a frame and its continuations), in bytes.
    public var maxMessageSize: Int

    public init(maxFrameSize: Int = 1024 * 1024, maxMessageSize: Int = 1024 * 1024) {
        self.maxFrameSize = maxFrameSize
        self.maxMessageSize = maxMessageSize
    }

    /// Room for one MQTT packet of up to `packetSize` bytes in a frame, and in a message.
    public init(packetSize: Int) {
        let size = max(packetSize, 64 * 1024)
        self.init(maxFrameSize: size, maxMessageSize: size)
    }
}
