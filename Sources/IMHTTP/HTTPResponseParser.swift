/// An incremental HTTP/1.x response parser for a client connection.
///
/// Feed bytes with `append` and call `nextResponse()` until nil; when the server closes,
/// call `finish()` to end a body that runs until close. Framing follows RFC 9112 §6.3:
/// 1xx responses are skipped, 204/304 have no body, then chunked Transfer-Encoding, then
/// Content-Length, else the body runs until the connection closes. Responses to HEAD are
/// not supported (their Content-Length would be taken as a body). Errors carry status 502.
public struct HTTPResponseParser {
    public let limits: HTTPLimits
    private var buffer = MessageBuffer()
    private var state = State.head
    private var chunked = ChunkedBodyDecoder()

    private enum State {
        case head
        case fixed(HTTPResponse, length: Int)
        case chunked(HTTPResponse)
        case untilClose(HTTPResponse)
        case failed(HTTPParseError)
    }

    public init(limits: HTTPLimits = HTTPLimits()) {
        self.limits = limits
    }

    public mutating func append(_ bytes: some Sequence<UInt8>) {
        buffer.append(bytes)
    }

    /// The next complete response, nil when more bytes are needed.
    public mutating func nextResponse() throws(HTTPParseError) -> HTTPResponse? {
        do {
            return try advance()
        } catch {
            state = .failed(error)
            throw error
        }
    }

    /// The head of the answer to an upgrade request, nil until it has arrived whole. A 101
    /// comes back instead of being skipped as interim; any other status comes back without
    /// waiting for its body. Bytes after the head stay for `takeBufferedBytes()`.
    public mutating func nextUpgradeHead() throws(HTTPParseError) -> HTTPResponse? {
        do {
            guard let head = try MessageHead.read(from: &buffer, limits: limits, failure: .badGateway) else { return nil }
            return try Self.response(from: head)
        } catch {
            state = .failed(error)
            throw error
        }
    }

    /// Takes the bytes buffered after the last head or response: after a 101, the new protocol's.
    public mutating func takeBufferedBytes() -> [UInt8] {
        buffer.take(buffer.count)
    }

    /// The connection closed: returns a response whose body ran until close, nil when no
    /// response had started, and throws when the close cut a message short.
    public mutating func finish() throws(HTTPParseError) -> HTTPResponse? {
        if let response = try nextResponse() { return response }
        switch state {
        case .untilClose(var response):
            response.body = buffer.take(buffer.count)
            state = .head
            return response
        case .head where buffer.count == 0:
            return nil
        case .failed(let error):
            throw error
        default:
            let error = HTTPParseError(.badGateway, "connection closed in the middle of a response")
            state = .failed(error)
            throw error
        }
    }

    private mutating func advance() throws(HTTPParseError) -> HTTPResponse? {
        switch state {
        case .failed(let error):
            throw error
        case .fixed(var response, let length):
            guard buffer.count >= length else { return nil }
            response.body = buffer.take(length)
            state = .head
            return response
        case .chunked(var response):
            guard let body = try chunked.decode(&buffer, limits: limits) else { return nil }
            response.body = body
            state = .head
            return response
        case .untilClose:
            guard buffer.count <= limits.maxBodyBytes else {
                throw HTTPParseError(.badGateway, "response body exceeds \(limits.maxBodyBytes) bytes")
            }
            return nil
        case .head:
            guard try readHead() else { return nil }
            return try advance()
        }
    }

    /// Parses a head if complete and sets the body state; false when more bytes are needed.
    private mutating func readHead() throws(HTTPParseError) -> Bool {
        guard let head = try MessageHead.read(from: &buffer, limits: limits, failure: .badGateway) else { return false }
        let response = try Self.response(from: head)
        if response.status.forbidsBody {
            // Interim (1xx) responses are dropped: the final one follows.
            state = (100..<200).contains(response.status.rawValue) ? .head : .fixed(response, length: 0)
            if case .head = state { return try readHead() }
            return true
        }
        if let coding = response.headers["Transfer-Encoding"] {
            guard HTTPHeaders.same(coding, "chunked") else {
                throw HTTPParseError(.badGateway, "unsupported Transfer-Encoding \(coding)")
            }
            chunked = ChunkedBodyDecoder()
            state = .chunked(response)
        } else if let length = try head.contentLength(limit: limits.maxBodyBytes, failure: .badGateway, tooLarge: .badGateway) {
            state = .fixed(response, length: length)
        } else {
            state = .untilClose(response)
        }
        return true
    }

    private static func response(from head: MessageHead) throws(HTTPParseError) -> HTTPResponse {
        // status-line = HTTP-version SP 3DIGIT SP [reason-phrase]; a missing last SP is tolerated.
        let line = Array(head.startLine)
        guard line.count >= 12, let version = HTTPVersion(line[0..<8]), version.major == 1,
            line[8] == UInt8(ascii: " "), line.count == 12 || line[12] == UInt8(ascii: " ")
        else {
            throw HTTPParseError(.badGateway, "invalid status line")
        }
        let digits = line[9..<12]
        guard digits.allSatisfy(ASCII.isDigit),
            let code = Int(String(decoding: digits, as: UTF8.self)), code >= 100
        else {
            throw HTTPParseError(.badGateway, "invalid status code")
        }
        return HTTPResponse(status: HTTPStatus(rawValue: code), version: version, headers: head.headers)
    }
}
