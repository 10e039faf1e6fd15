/// MQTT over WebSocket for one endpoint: the HTTP path of the upgrade and the frame limits.
public struct WebSocketSettings: Hashable, Sendable {
    /// The path MQTT brokers serve WebSocket clients at, by custom.
    public static let defaultPath = "/mqtt"
    /// The largest frame payload sent (either end); longer writes go out as several frames.
    public static let maxOutgoingFrame = 64 * 1024

    /// The request target of the upgrade (`/mqtt` by default).
    public var path: String
    public var limits: WebSocketLimits

    public init(path: String = WebSocketSettings.defaultPath, limits: WebSocketLimits = WebSocketLimits()) {
        self.path = path
        self.limits = limits
    }
}
