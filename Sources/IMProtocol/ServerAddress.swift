import IMHTTP

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
    /// form, optionally as an `mqtt://`, `mqtts://`, `ws://` or `wss://` URL (a WebSocket one with
    /// its path, `/mqtt` when none, ports 80 and 443). Without a scheme the address speaks TLS
    /// when `tls` says so: a redirect from a TLS server stays on TLS.
    public init(parsing given: String, tls: Bool = false) throws(ServerAddressError) {
        var text = String(given.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        var tls = tls
        var path: String?
        let schemes = [("mqtts://", true, false), ("mqtt://", false, false), ("wss://", true, true), ("ws://", false, true)]
        for (scheme, secure, webSocket) in schemes where text.lowercased().hasPrefix(scheme) {
            text = String(text.dropFirst(scheme.count))
            if webSocket {
                let slash = text.firstIndex(of: "/") ?? text.endIndex
                let written = String(text[slash...])
                path = written.isEmpty || written == "/" ? Self.defaultWebSocketPath : written
                text = String(text[..<slash])
            } else if text.hasSuffix("/") {
                text.removeLast()
            }
            tls = secure
            break
        }
        self.tls = tls
        webSocketPath = path
        guard !text.isEmpty else { throw ServerAddressError("empty server address; give host:port") }
        let defaultPort = path == nil
            ? (tls ? Self.defaultTLSPort : Self.defaultPort)
            : (tls ? Self.defaultSecureWebSocketPort : Self.defaultWebSocketPort)
        do throws(URLParseError) {
            let endpoint = try HostPort(parsing: text, defaultPort: defaultPort)
            (host, port) = (endpoint.host, endpoint.port)
        } catch {
            throw ServerAddressError("server address '\(text)': \(error.reason)")
        }
    }

    /// `host:port`, an IPv6 host in brackets; `mqtts://host:port` for TLS; `ws://host:port/path`
    /// or `wss://...` for WebSocket.
    public var description: String {
        let endpoint = HostPort(host: host, port: port)
        if let webSocketPath { return "\(scheme)://\(endpoint)\(webSocketPath)" }
        return tls ? "mqtts://\(endpoint)" : "\(endpoint)"
    }
}

/// A server address that does not parse, and why.
public struct ServerAddressError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
