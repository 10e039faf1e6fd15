/// An incremental HTTP/1.x request parser for a server connection.
///
/// Feed bytes with `append`, then call `nextRequest()` until it returns nil ("need more
/// bytes"); pipelined requests come out one by one. Bodies are framed by Content-Length
/// only: a request with Transfer-Encoding is refused with 501 (chunked uploads are not
/// accepted; clients must send Content-Length). HTTP/1.1 requests need exactly one Host.
/// Bounds are checked before any body storage is reserved. Not thread-safe: one per connection.
public struct HTTPRequestParser {
    public let limits: HTTPLimits
    private var buffer = MessageBuffer()
    private var state = State.head

    private enum State {
        case head
        case body(HTTPRequest, length: Int, expectsContinue: Bool)
        case failed(HTTPParseError)
    }

    public init(limits: HTTPLimits = HTTPLimits()) {
        self.limits = limits
    }

    /// Bytes received and not yet returned as part of a request.
    public var bufferedByteCount: Int { buffer.count }

    /// A request's head has arrived whole and its body is awaited.
    public var isReadingBody: Bool {
        if case .body = state { return true }
        return false
    }

    public mutating func append(_ bytes: some Sequence<UInt8>) {
        buffer.append(bytes)
    }

    /// Takes the bytes buffered after the last request: once a request upgrades the
    /// connection (WebSocket), they belong to the new protocol.
    public mutating func takeBufferedBytes() -> [UInt8] {
        buffer.take(buffer.count)
    }

    /// The next complete request, nil when more bytes are needed, or the error to answer.
    public mutating func nextRequest() throws(HTTPParseError) -> HTTPRequest? {
        do {
            return try advance()
        } catch {
            state = .failed(error)
            throw error
        }
    }

    /// True once for a request that sent `Expect: 100-continue` and whose body has not all
    /// arrived: the server should now write `HTTP/1.1 100 Continue` and keep reading.
    public mutating func takeContinueExpectation() -> Bool {
        guard case .body(let request, let length, true) = state else { return false }
        state = .body(request, length: length, expectsContinue: false)
        return true
    }

    private mutating func advance() throws(HTTPParseError) -> HTTPRequest? {
        switch state {
        case .failed(let error):
            throw error
        case .body(var request, let length, _):
            guard buffer.count >= length else { return nil }
            request.body = buffer.take(length)
            state = .head
            return request
        case .head:
            guard let head = try MessageHead.read(from: &buffer, limits: limits, failure: .badRequest) else { return nil }
            let (request, length) = try Self.request(from: head, limits: limits)
            let expectsContinue = request.headers["Expect"] != nil && length > 0
            state = .body(request, length: length, expectsContinue: expectsContinue)
            return try advance()
        }
    }

    private static func request(from head: MessageHead, limits: HTTPLimits) throws(HTTPParseError) -> (HTTPRequest, Int) {
        let parts = head.startLine.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw HTTPParseError(.badRequest, "request line is not: method SP target SP version") }
        guard !parts[0].isEmpty, parts[0].allSatisfy(MessageHead.isTokenCharacter) else {
            throw HTTPParseError(.badRequest, "invalid method")
        }
        guard let version = HTTPVersion(parts[2]) else { throw HTTPParseError(.badRequest, "invalid HTTP version") }
        guard version.major == 1 else { throw HTTPParseError(.versionNotSupported, "only HTTP/1.x is supported") }
        let target = parts[1]
        guard target.first == UInt8(ascii: "/") || target.elementsEqual("*".utf8),
            target.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else {
            throw HTTPParseError(.badRequest, "request target must be an absolute path")
        }
        let headers = head.headers
        // Minor versions above 1 are answered as 1.1 (RFC 9112 §2.5).
        let request = HTTPRequest(
            method: String(decoding: parts[0], as: UTF8.self), target: String(decoding: target, as: UTF8.self),
            version: version.minor == 0 ? .http1_0 : .http1_1, headers: headers)
        if request.version == .http1_1 && headers.values("Host").count != 1 {
            throw HTTPParseError(.badRequest, "an HTTP/1.1 request needs exactly one Host header")
        }
        if headers.contains("Transfer-Encoding") {
            throw HTTPParseError(.notImplemented, "Transfer-Encoding is not accepted; send Content-Length")
        }
        if let expectation = headers["Expect"], !HTTPHeaders.same(expectation, "100-continue") {
            throw HTTPParseError(.expectationFailed, "unsupported expectation \(expectation)")
        }
        let length = try head.contentLength(limit: limits.maxBodyBytes, failure: .badRequest, tooLarge: .payloadTooLarge) ?? 0
        return (request, length)
    }
}
