import IMHTTP
import IMProtocol

/// Profiles name servers as URLs: `mqtt://HOST[:PORT]` (port 1883 when omitted) or
/// `mqtts://HOST[:PORT]` for MQTT over TLS (port 8883).
extension ServerAddress {
    /// Parses `mqtt://HOST[:PORT][/]` or `mqtts://...`; IPv6 hosts in brackets (`mqtt://[::1]:1883`).
    public init(mqttURL text: String) throws(URLParseError) {
        let tls = text.lowercased().hasPrefix("mqtts://")
        let scheme = tls ? "mqtts" : "mqtt"
        let form = "mqtt://HOST:PORT or mqtts://HOST:PORT"
        var rest = try URLScheme.rest(of: text, scheme: scheme, form: form)
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.contains("/"), !rest.contains("?"), !rest.contains("@") else {
            throw URLParseError("only a host and port may follow \(scheme)://; expected \(form)")
        }
        let endpoint = try HostPort(parsing: rest, defaultPort: tls ? ServerAddress.defaultTLSPort : ServerAddress.defaultPort)
        self.init(host: endpoint.host, port: endpoint.port, tls: tls)
    }

    /// `mqtt://host:port` or `mqtts://host:port`, the port always written, as a profile writes it.
    public var url: String { "\(tls ? "mqtts" : "mqtt")://\(HostPort(host: host, port: port))" }
}
