import IMHTTP
import IMProtocol

/// Profiles name servers as URLs: `mqtt://HOST[:PORT]` (port 1883 when omitted),
/// `mqtts://HOST[:PORT]` for MQTT over TLS (port 8883), `ws://HOST[:PORT][/PATH]` for MQTT
/// over WebSocket (port 80, path /mqtt) and `wss://HOST[:PORT][/PATH]` over TLS (port 443).
extension ServerAddress {
    private static let schemes: [(name: String, tls: Bool, webSocket: Bool, port: UInt16)] = [
        ("mqtt", false, false, defaultPort), ("mqtts", true, false, defaultTLSPort),
        ("ws", false, true, defaultWebSocketPort), ("wss", true, true, defaultSecureWebSocketPort),
    ]

    /// Parses `mqtt://HOST[:PORT][/]`, `mqtts://...`, `ws://HOST[:PORT][/PATH]` or `wss://...`;
    /// IPv6 hosts in brackets (`mqtt://[::1]:1883`).
    public init(mqttURL text: String) throws(URLParseError) {
        let given = text.lowercased()
        let scheme = Self.schemes.first { given.hasPrefix($0.name + "://") } ?? Self.schemes[0]
        let form = "mqtt://HOST:PORT, mqtts://HOST:PORT, ws://HOST:PORT/PATH or wss://HOST:PORT/PATH"
        var rest = try URLScheme.rest(of: text, scheme: scheme.name, form: form)
        var path: String?
        if scheme.webSocket {
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            let written = String(rest[slash...])
            path = written.isEmpty || written == "/" ? ServerAddress.defaultWebSocketPath : written
            rest = rest[..<slash]
            guard !written.contains("?"), !written.contains("#") else {
                throw URLParseError("a WebSocket path takes no query or fragment; expected \(form)")
            }
        } else if rest.hasSuffix("/") {
            rest = rest.dropLast()
        }
        guard !rest.contains("/"), !rest.contains("?"), !rest.contains("@") else {
            throw URLParseError("only a host and port may follow \(scheme.name)://; expected \(form)")
        }
        let endpoint = try HostPort(parsing: rest, defaultPort: scheme.port)
        self.init(host: endpoint.host, port: endpoint.port, tls: scheme.tls, webSocketPath: path)
    }

    /// The address as a profile writes it, the port always written (and the path of a WebSocket).
    public var url: String { "\(scheme)://\(HostPort(host: host, port: port))\(webSocketPath ?? "")" }
}
