import IMHTTP

/// One MQTT server: a host name or address, a port, and whether it speaks TLS.
///
/// The engine dials these, profiles list them (`mqtt://HOST:PORT`, `mqtts://HOST:PORT`), and a
/// Server Reference in CONNACK or DISCONNECT names one as `host:port` or as such a URL.
public struct ServerAddress: Hashable, Sendable, CustomStringConvertible {
    /// The MQTT port (IANA), used when an address names none.
    public static let defaultPort: UInt16 = 1883
    /// The MQTT over TLS port (IANA), used when a TLS address names none.
    public static let defaultTLSPort: UInt16 = 8883

    /// A host name, an IPv4 address or an IPv6 address (without brackets).
    public var host: String
    public var port: UInt16
    /// Whether the connection runs TLS (`mqtts://`).
    public var tls: Bool

    public init(host: String, port: UInt16 = ServerAddress.defaultPort, tls: Bool = false) {
        self.host = host
        self.port = port
        self.tls = tls
    }

    /// Reads `host:port`, `[ipv6]:port`, or a bare host (port 1883 or 8883): the Server Reference
    /// form, optionally as `mqtt://` or `mqtts://` URL. Without a scheme the address speaks TLS
    /// when `tls` says so: a redirect from a TLS server stays on TLS.
    public init(parsing given: String, tls: Bool = false) throws(ServerAddressError) {
        var text = String(given.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        var tls = tls
        for (scheme, secure) in [("mqtts://", true), ("mqtt://", false)] where text.lowercased().hasPrefix(scheme) {
            text = String(text.dropFirst(scheme.count))
            if text.hasSuffix("/") { text.removeLast() }
            tls = secure
            break
        }
        self.tls = tls
        guard !text.isEmpty else { throw ServerAddressError("empty server address; give host:port") }
        do throws(URLParseError) {
            let endpoint = try HostPort(parsing: text, defaultPort: tls ? Self.defaultTLSPort : Self.defaultPort)
            (host, port) = (endpoint.host, endpoint.port)
        } catch {
            throw ServerAddressError("server address '\(text)': \(error.reason)")
        }
    }

    /// `host:port`, an IPv6 host in brackets; `mqtts://host:port` for TLS.
    public var description: String {
        let endpoint = HostPort(host: host, port: port)
        return tls ? "mqtts://\(endpoint)" : "\(endpoint)"
    }
}

/// A server address that does not parse, and why.
public struct ServerAddressError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
