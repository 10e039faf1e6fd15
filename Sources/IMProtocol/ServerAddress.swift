/// One MQTT server: a host name or address, a port, whether it speaks TLS, and whether MQTT
/// rides on WebSocket (at which path).
///
/// The engine dials these, profiles list them (`mqtt://HOST:PORT`, `mqtts://HOST:PORT`,
/// `ws://HOST:PORT/PATH`, `wss://HOST:PORT/PATH`), and a
/// Server Reference in CONNACK or DISCONNECT names one as `host:port` or as such a URL.
public struct ServerAddress: Hashable, Sendable, CustomStringConvertible {
    /// The MQTT port (IANA), used when an address names none.
    public static let defaultPort: UInt16 = 1883
    /// The MQTT over TLS port (IANA), used when a TLS address names none.
    public static let defaultTLSPort: UInt16 = 8883
    /// The ports of `ws://` and `wss://` addresses that name none (HTTP's).
    public static let defaultWebSocketPort: UInt16 = 80
    public static let defaultSecureWebSocketPort: UInt16 = 443
    /// The path of a WebSocket address that names none, as MQTT brokers serve it.
    public static let defaultWebSocketPath = "/mqtt"

    /// A host name, an IPv4 address or an IPv6 address (without brackets).
    public var host: String
    public var port: UInt16
    /// Whether the connection runs TLS (`mqtts://`).
    public var tls: Bool
    /// For MQTT over WebSocket, the path of the HTTP upgrade; nil for MQTT over TCP.
    public var webSocketPath: String?

    public init(host: String, port: UInt16 = ServerAddress.defaultPort, tls: Bool = false, webSocketPath: String? = nil) {
        self.host = host
        self.port = port
        self.tls = tls
        self.webSocketPath = webSocketPath
    }

    /// The URL scheme of the transport: `mqtt`, `mqtts`, `ws` or `wss`.
    public var scheme: String {
        webSocketPath == nil ? (tls ? "mqtts" : "mqtt") : (tls ? "wss" : "ws")
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
        var host = Substring(text)
        var port: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else {
                throw ServerAddressError("server address '\(text)' has an unclosed '['")
            }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.first == ":" else { throw ServerAddressError("server address '\(text)': expected ':' after ']'") }
                port = rest.dropFirst()
            }
        } else if let colon = text.lastIndex(of: ":") {
            guard text.firstIndex(of: ":") == colon else {
                throw ServerAddressError("server address '\(text)': put an IPv6 address in brackets, [::1]:1883")
            }
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == "/" }) else {
            throw ServerAddressError("server address '\(text)' has no valid host")
        }
        self.host = String(host)
        if let port {
            guard let number = UInt16(port), number > 0 else {
                throw ServerAddressError("server address '\(text)': the port must be 1-65535")
            }
            self.port = number
        } else {
            self.port = tls ? Self.defaultTLSPort : Self.defaultPort
        }
    }

    /// `host:port`, an IPv6 host in brackets; `mqtts://host:port` for TLS; `ws://host:port/path`
    /// or `wss://...` for WebSocket.
    public var description: String {
        let endpoint = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        if let webSocketPath { return "\(scheme)://\(endpoint)\(webSocketPath)" }
        return tls ? "mqtts://\(endpoint)" : endpoint
    }
}

/// A server address that does not parse, and why.
public struct ServerAddressError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
