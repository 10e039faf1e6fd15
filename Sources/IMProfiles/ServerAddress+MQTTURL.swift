import IMHTTP
import IMProtocol

/// Profiles name servers as URLs: `mqtt://HOST[:PORT]`, port 1883 when omitted.
extension ServerAddress {
    /// Parses `mqtt://HOST[:PORT][/]`; IPv6 hosts in brackets (`mqtt://[::1]:1883`).
    public init(mqttURL text: String) throws(URLParseError) {
        let form = "mqtt://HOST:PORT"
        var rest = try HostAndPort.afterScheme(text, scheme: "mqtt", form: form)
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.contains("/"), !rest.contains("?"), !rest.contains("@") else {
            throw URLParseError("only a host and port may follow mqtt://; expected \(form)")
        }
        let (host, port) = try HostAndPort.parse(rest, defaultPort: ServerAddress.defaultPort)
        self.init(host: host, port: port)
    }

    /// `mqtt://host:port`, the port always written, as a profile writes it.
    public var url: String { "mqtt://\(HostAndPort.format(host: host, port: port))" }
}
