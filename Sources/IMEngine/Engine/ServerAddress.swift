/// One server of an environment: a host name or address and a port.
public struct ServerAddress: Hashable, Sendable, CustomStringConvertible {
    /// The MQTT port when none is given.
    public static let defaultPort: UInt16 = 1883

    /// A host name, an IPv4 address or an IPv6 address (without brackets).
    public var host: String
    public var port: UInt16

    public init(host: String, port: UInt16 = ServerAddress.defaultPort) {
        self.host = host
        self.port = port
    }

    /// Reads `host:port`, `[ipv6]:port`, or a bare host (port 1883).
    ///
    /// This is also the form of an MQTT Server Reference; of a space-separated list of
    /// references, pass the first.
    public init(parsing text: String) throws(EngineError) {
        let text = text.trimmingWhitespace()
        guard !text.isEmpty else { throw .invalidParameter("empty server address; give host:port") }
        var host = Substring(text)
        var port: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else {
                throw .invalidParameter("server address '\(text)' has an unclosed '['")
            }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.first == ":" else { throw .invalidParameter("server address '\(text)': expected ':' after ']'") }
                port = rest.dropFirst()
            }
        } else if let colon = text.lastIndex(of: ":") {
            guard text.firstIndex(of: ":") == colon else {
                throw .invalidParameter("server address '\(text)': put an IPv6 address in brackets, [::1]:1883")
            }
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == "/" }) else {
            throw .invalidParameter("server address '\(text)' has no valid host")
        }
        self.host = String(host)
        if let port {
            guard let number = UInt16(port), number > 0 else {
                throw .invalidParameter("server address '\(text)': the port must be 1-65535")
            }
            self.port = number
        } else {
            self.port = Self.defaultPort
        }
    }

    /// Reads a list of addresses separated by commas or spaces.
    public static func list(parsing text: String) throws(EngineError) -> [ServerAddress] {
        var addresses: [ServerAddress] = []
        for part in text.split(whereSeparator: { $0 == "," || $0 == " " }) {
            addresses.append(try ServerAddress(parsing: String(part)))
        }
        guard !addresses.isEmpty else { throw .invalidParameter("no server address given") }
        return addresses
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

extension String {
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0.isWhitespace }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
