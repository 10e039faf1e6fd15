/// How a client's MQTT connection reached the server: the listener that accepted it.
enum MQTTTransport: UInt8, CaseIterable, Sendable {
    case tcp, tls, ws, wss

    /// The `transport` label of `/metrics`.
    var label: String {
        switch self {
        case .tcp: "tcp"
        case .tls: "tls"
        case .ws: "ws"
        case .wss: "wss"
        }
    }
}
