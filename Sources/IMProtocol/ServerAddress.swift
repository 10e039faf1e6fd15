/// One MQTT server: a host name or address and a port.
///
/// The engine dials these, profiles list them (`mqtt://HOST:PORT`), and a Server Reference in
/// CONNACK or DISCONNECT names one as `host:port`.
public struct ServerAddress: Hashable, Sendable, CustomStringConvertible {
    /// The MQTT port (IANA), used when an address names none.
    public static let defaultPort: UInt16 = 1883

    /// A host name, an IPv4 address or an IPv6 address (without brackets).
    public var host: String
    public var port: UInt16

    public init(host: String, port: UInt16 = ServerAddress.defaultPort) {
        self.host = host
        self.port = port
    }

    /// Reads `host:port`, `[ipv6]:port`, or a bare host (port 1883): the Server Reference form.
    public init(parsing text: String) throws(ServerAddressError) {
        let text = String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
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
            self.port = Self.defaultPort
        }
    }

    /// `host:port`, an IPv6 host in brackets.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// A server address that does not parse, and why.
public struct ServerAddressError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }
}
