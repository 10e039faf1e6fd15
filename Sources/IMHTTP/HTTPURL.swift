#if canImport(Glibc)
import Glibc
#endif

/// An `http://` or `https://host[:port][/path][?query]` URL: the engine's token URL, the REPL's `api`.
///
/// Hosts are names, IPv4 addresses or bracketed IPv6 literals (`http://[::1]:8080/`).
/// Path and query stay as written (percent-encoding kept); a fragment is dropped.
/// `isSecure` marks https (port 443 unless written); the caller runs TLS.
public struct HTTPURL: Hashable, Sendable, CustomStringConvertible {
    /// The host without brackets, names lowercased.
    public var host: String
    public var port: UInt16
    /// The path, `/` when the URL has none.
    public var path: String
    public var query: String?
    /// https: the connection runs TLS.
    public var isSecure: Bool

    public init(host: String, port: UInt16? = nil, path: String = "/", query: String? = nil, secure: Bool = false) {
        self.host = host
        self.port = port ?? (secure ? 443 : 80)
        self.path = path
        self.query = query
        self.isSecure = secure
    }

    /// Whether `host` is an IPv6 literal.
    public var isIPv6: Bool { host.utf8.contains(UInt8(ascii: ":")) }

    /// The `Host` header value: brackets around IPv6, the port unless the scheme's default.
    public var hostHeader: String {
        let name = isIPv6 ? "[\(host)]" : host
        return port == (isSecure ? 443 : 80) ? name : "\(name):\(port)"
    }

    /// The origin-form request target: path plus `?query`.
    public var requestTarget: String {
        query.map { "\(path)?\($0)" } ?? path
    }

    /// The URL for people: query values (often credentials, `?key=…`) are redacted, names kept.
    /// `requestTarget` has them for the wire.
    public var description: String {
        let redactedQuery = query.map { query in
            "?" + query.split(separator: "&", omittingEmptySubsequences: false).map { pair in
                guard let equals = pair.firstIndex(of: "=") else { return pair.isEmpty ? "" : "…" }
                return pair[pair.index(after: equals)...].isEmpty ? String(pair) : "\(pair[...equals])…"
            }.joined(separator: "&")
        }
        return "\(isSecure ? "https" : "http")://\(hostHeader)\(path)\(redactedQuery ?? "")"
    }

    /// The whole URL, query values included, as it parses back: for configuration written out,
    /// never for output (`description` is the form for people).
    public var text: String {
        "\(isSecure ? "https" : "http")://\(hostHeader)\(requestTarget)"
    }

    /// The query's values as written (percent-encoding kept), and bare words: what
    /// `description` hides, for a redactor to find wherever else they appear.
    public var queryValues: [String] {
        (query ?? "").split(separator: "&").compactMap { pair in
            let value: Substring = if let equals = pair.firstIndex(of: "=") { pair[pair.index(after: equals)...] } else { pair }
            return value.isEmpty ? nil : String(value)
        }
    }

    /// Parses `text`; the error says what to fix.
    public init(parsing text: String) throws(URLParseError) {
        let utf8 = Array(text.utf8)
        guard !utf8.isEmpty, utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw URLParseError("URL is empty or has spaces, control or non-ASCII characters (percent-encode them)")
        }
        let isSchemeCharacter = { (byte: UInt8) in
            HostPort.isNameByte(byte) && byte != UInt8(ascii: "_") || byte == UInt8(ascii: "+")
        }
        guard let schemeEnd = Self.find(Array("://".utf8), in: utf8), schemeEnd > 0,
            utf8[..<schemeEnd].allSatisfy(isSchemeCharacter)
        else {
            throw URLParseError("URL must start with http:// or https://")
        }
        let scheme = String(decoding: utf8[..<schemeEnd], as: UTF8.self).lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw URLParseError("unsupported scheme \(scheme); use http:// or https://")
        }
        isSecure = scheme == "https"
        var rest = utf8[(schemeEnd + 3)...]
        if let hash = rest.firstIndex(of: UInt8(ascii: "#")) { rest = rest[..<hash] }
        let authorityEnd = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? rest.endIndex
        (host, port) = try Self.authority(rest[..<authorityEnd], defaultPort: isSecure ? 443 : 80)
        let pathAndQuery = rest[authorityEnd...]
        let mark = pathAndQuery.firstIndex(of: UInt8(ascii: "?"))
        let rawPath = pathAndQuery[..<(mark ?? pathAndQuery.endIndex)]
        path = rawPath.isEmpty ? "/" : String(decoding: rawPath, as: UTF8.self)
        query = mark.map { String(decoding: pathAndQuery[($0 + 1)...], as: UTF8.self) }
    }

    private static func authority(_ bytes: ArraySlice<UInt8>, defaultPort: UInt16) throws(URLParseError) -> (String, UInt16) {
        guard !bytes.contains(UInt8(ascii: "@")) else {
            throw URLParseError("user names and passwords in the URL are not supported")
        }
        let endpoint = try HostPort(parsing: String(decoding: bytes, as: UTF8.self), defaultPort: defaultPort)
        return (endpoint.host, endpoint.port)
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}

/// A URL this client cannot use, with what to change.
public struct URLParseError: Error, Hashable, Sendable, CustomStringConvertible {
    public var reason: String

    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
