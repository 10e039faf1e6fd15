import IMEncoding
import IMHTTP
import IMProtocol

/// A SOCKS5 proxy: `socks5://[USER:PASS@]HOST[:PORT]`, port 1080 when omitted.
///
/// User and password may be percent-encoded (`%40` for `@`), and are each 1 to 255 bytes once decoded.
public struct ProxyAddress: Sendable, Hashable, CustomStringConvertible {
    /// The SOCKS port (IANA), used when an address names none.
    public static let defaultPort: UInt16 = 1080

    public var host: String
    public var port: UInt16
    public var username: String?
    public var password: Secret?

    public init(host: String, port: UInt16 = ProxyAddress.defaultPort, username: String? = nil, password: Secret? = nil) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
    }

    public init(parsing text: String) throws(URLParseError) {
        let form = "socks5://[USER:PASS@]HOST:PORT"
        var rest = try URLScheme.rest(of: text, scheme: "socks5", form: form)
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.contains("/"), !rest.contains("?") else {
            throw URLParseError("only credentials, a host and a port may follow socks5://; expected \(form)")
        }
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            guard let colon = credentials.firstIndex(of: ":") else {
                throw URLParseError("give both user and password, as in socks5://USER:PASS@HOST:PORT")
            }
            let user = try Self.decoded(credentials[..<colon], "user")
            let pass = try Self.decoded(credentials[credentials.index(after: colon)...], "password")
            (username, password) = (user, Secret(pass))
            rest = rest[rest.index(after: at)...]
        }
        let endpoint = try HostPort(parsing: rest, defaultPort: Self.defaultPort)
        (host, port) = (endpoint.host, endpoint.port)
    }

    /// `socks5://user:…@host:port`, the password never shown.
    public var description: String {
        let credentials = username.map { "\($0):\(password?.redacted ?? "")@" } ?? ""
        return "socks5://\(credentials)\(HostPort(host: host, port: port))"
    }

    private static func decoded(_ text: Substring, _ what: String) throws(URLParseError) -> String {
        var bytes: [UInt8] = []
        var utf8 = text.utf8[...]
        while let byte = utf8.popFirst() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let value = Hex.decode(String(decoding: utf8.prefix(2), as: UTF8.self))?.first else {
                throw URLParseError("bad percent-encoding in the proxy \(what)")
            }
            bytes.append(value)
            utf8 = utf8.dropFirst(2)
        }
        guard (1...255).contains(bytes.count) else { throw URLParseError("the proxy \(what) must be 1 to 255 bytes") }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw URLParseError("the proxy \(what) is not UTF-8 once decoded")
        }
        return decoded
    }
}
