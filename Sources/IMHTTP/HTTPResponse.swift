/// One HTTP/1.x response: what a server serializes and what the client parser yields.
public struct HTTPResponse: Hashable, Sendable {
    public var status: HTTPStatus
    public var version: HTTPVersion
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public init(status: HTTPStatus, version: HTTPVersion = .http1_1, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.version = version
        self.headers = headers
        self.body = body
    }

    /// A response with a JSON body (`Content-Type: application/json; charset=utf-8`).
    public static func json(_ status: HTTPStatus = .ok, _ body: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json; charset=utf-8"], body: body)
    }

    /// Whether the server keeps the connection open after this response (`Connection: close` absent).
    public var keepAlive: Bool {
        if version == .http1_0 {
            return headers.containsToken("keep-alive", in: "Connection")
        }
        return !headers.containsToken("close", in: "Connection")
    }

    /// The response on the wire. `Content-Length` is computed from the body (a caller's copy
    /// is replaced); statuses that forbid a body (1xx, 204, 304) get neither length nor body.
    /// With `closing`, adds `Connection: close`. `toHead` answers a HEAD request: the headers a
    /// GET would get, Content-Length included, and no body (RFC 9110 section 9.3.2).
    public func serialized(closing: Bool = false, toHead: Bool = false) -> [UInt8] {
        var headers = headers
        headers.remove("Content-Length")
        if !status.forbidsBody {
            headers.add(name: "Content-Length", value: String(body.count))
        }
        if closing && !headers.containsToken("close", in: "Connection") {
            headers.add(name: "Connection", value: "close")
        }
        var output = Array("\(version) \(status.rawValue) \(status.reasonPhrase)\r\n".utf8)
        HTTPWire.write(headers, into: &output)
        if !status.forbidsBody && !toHead {
            output += body
        }
        return output
    }
}
