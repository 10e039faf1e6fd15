import IMHTTP

/// An MQTT server to connect to: `mqtt://HOST[:PORT]`, port 1883 when omitted.
public struct ServerAddress: Sendable, Hashable, CustomStringConvertible {
    /// The MQTT port (IANA), used when an address names none.
    public static let defaultPort: UInt16 = 1883

    /// A name, an IPv4 address, or an IPv6 address without brackets; names lowercased.
    public var host: String
    public var port: UInt16

    public init(host: String, port: UInt16 = ServerAddress.defaultPort) {
        self.host = host
        self.port = port
    }

    /// Parses `mqtt://HOST[:PORT][/]`; IPv6 hosts in brackets (`mqtt://[::1]:1883`).
    public init(parsing text: String) throws(URLParseError) {
        let form = "mqtt://HOST:PORT"
        var rest = try HostAndPort.afterScheme(text, scheme: "mqtt", form: form)
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.contains("/"), !rest.contains("?"), !rest.contains("@") else {
            throw URLParseError("only a host and port may follow mqtt://; expected \(form)")
        }
        (host, port) = try HostAndPort.parse(rest, defaultPort: Self.defaultPort)
    }

    /// `mqtt://host:port`, the port always written.
    public var description: String { "mqtt://\(HostAndPort.format(host: host, port: port))" }
}
