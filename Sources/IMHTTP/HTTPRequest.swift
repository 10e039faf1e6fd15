/// One HTTP/1.x request: what the parser yields and what a client serializes.
public struct HTTPRequest: Hashable, Sendable {
    public var method: String
    /// The request target as sent: `/path?query` (origin form) or `*`.
    public var target: String
    public var version: HTTPVersion
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(method: String, target: String, version: HTTPVersion = .http1_1, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
    }

    /// The target before `?`, still percent-encoded.
    public var path: String {
        String(decoding: target.utf8.prefix { $0 != UInt8(ascii: "?") }, as: UTF8.self)
    }

    /// The target after the first `?`, still encoded (decode it with `FormFields`), or nil.
    public var query: String? {
        guard let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return nil }
        return String(decoding: target.utf8[target.utf8.index(after: mark)...], as: UTF8.self)
    }

    /// Whether the connection stays open after this exchange: HTTP/1.1 unless
    /// `Connection: close`; HTTP/1.0 only with `Connection: keep-alive`.
    public var keepAlive: Bool {
        if version == .http1_0 {
            return headers.containsToken("keep-alive", in: "Connection")
        }
        return !headers.containsToken("close", in: "Connection")
    }

    /// The request on the wire. `Content-Length` is set from the body for every method
    /// that carries one (and for POST and PUT even when empty); a caller's copy is replaced.
    public func serialized() -> [UInt8] {
        var headers = headers
        headers.remove("Content-Length")
        if !body.isEmpty || method == "POST" || method == "PUT" {
            headers.add(name: "Content-Length", value: String(body.count))
        }
        var output = Array("\(method) \(target) \(version)\r\n".utf8)
        HTTPWire.write(headers, into: &output)
        output += body
        return output
    }
}

/// Helpers shared by the serializers.
enum HTTPWire {
    /// Writes the fields and the blank line. CR, LF and NUL in names or values become
    /// spaces: a value from elsewhere must not be able to start a header of its own.
    static func write(_ headers: HTTPHeaders, into output: inout [UInt8]) {
        for field in headers {
            output += sanitized(field.name)
            output += [UInt8(ascii: ":"), UInt8(ascii: " ")]
            output += sanitized(field.value)
            output += [0x0D, 0x0A]
        }
        output += [0x0D, 0x0A]
    }

    private static func sanitized(_ text: String) -> [UInt8] {
        text.utf8.map { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 ? UInt8(ascii: " ") : $0 }
    }
}
