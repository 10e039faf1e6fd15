import IMHTTP
import Testing

struct HTTPRequestParserTests {
    private let post = "POST /user/getToken.json?x=1 HTTP/1.1\r\nHost: localhost\r\nApp-Key: k\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 11\r\n\r\nuserId=abcd"
    private let get = "GET /user/checkOnline.json HTTP/1.1\r\nhost: a\r\nConnection: close\r\n\r\n"

    /// Every request the parser yields for `bytes`, fed in pieces of `chunk` bytes.
    private func parse(_ text: String, chunk: Int = .max, limits: HTTPLimits = HTTPLimits()) throws(HTTPParseError) -> [HTTPRequest] {
        var parser = HTTPRequestParser(limits: limits)
        var requests: [HTTPRequest] = []
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + min(chunk, bytes.count))
            parser.append(bytes[offset..<end])
            offset = end
            while let request = try parser.nextRequest() {
                requests.append(request)
            }
        }
        #expect(parser.bufferedByteCount == 0)
        return requests
    }

    private func status(of text: String, limits: HTTPLimits = HTTPLimits()) -> HTTPStatus? {
        do {
            _ = try parse(text, limits: limits)
            return nil
        } catch {
            return error.status
        }
    }

    private func failure(_ parser: inout HTTPRequestParser) -> HTTPStatus? {
        do {
            _ = try parser.nextRequest()
            return nil
        } catch {
            return error.status
        }
    }

    @Test func parsesARequestWithBody() throws {
        let requests = try parse(post)
        #expect(requests.count == 1)
        let request = try #require(requests.first)
        #expect(request.method == "POST")
        #expect(request.target == "/user/getToken.json?x=1")
        #expect(request.path == "/user/getToken.json")
        #expect(request.query == "x=1")
        #expect(request.version == .http1_1)
        #expect(request.headers["app-key"] == "k")
        #expect(request.headers["CONTENT-LENGTH"] == "11")
        #expect(request.body == Array("userId=abcd".utf8))
        #expect(request.keepAlive)
    }

    @Test func pipelinedRequestsInOneBufferComeOutInOrder() throws {
        let requests = try parse(post + get + post)
        #expect(requests.map(\.method) == ["POST", "GET", "POST"])
        #expect(requests.map(\.keepAlive) == [true, false, true])
        #expect(requests[1].body.isEmpty)
        #expect(requests[1].query == nil)
    }

    @Test func requestsSplitAtEveryByteGiveTheSameResult() throws {
        let whole = try parse(post + get)
        for chunk in 1...7 {
            #expect(try parse(post + get, chunk: chunk) == whole)
        }
        // Also every single split point of the two-request stream.
        let bytes = Array((post + get).utf8)
        for split in 1..<bytes.count {
            var parser = HTTPRequestParser()
            var requests: [HTTPRequest] = []
            parser.append(bytes[..<split])
            while let request = try parser.nextRequest() { requests.append(request) }
            parser.append(bytes[split...])
            while let request = try parser.nextRequest() { requests.append(request) }
            #expect(requests == whole, "split at \(split)")
        }
    }

    @Test func bareLineFeedsAndLeadingEmptyLinesAreTolerated() throws {
        let requests = try parse("\r\n\nGET / HTTP/1.1\nHost: x\n\n")
        #expect(requests.map(\.path) == ["/"])
    }

    @Test func keepAliveFollowsVersionAndConnection() throws {
        #expect(try parse("GET / HTTP/1.0\r\n\r\n").first?.keepAlive == false)
        #expect(try parse("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n").first?.keepAlive == true)
        #expect(try parse("GET / HTTP/1.1\r\nHost: x\r\nConnection: upgrade, CLOSE\r\n\r\n").first?.keepAlive == false)
        // A higher 1.x minor version is treated as 1.1.
        #expect(try parse("GET / HTTP/1.7\r\nHost: x\r\n\r\n").first?.version == .http1_1)
    }

    @Test func badRequestLinesAre400() {
        for line in [
            "GET\r\n\r\n", "GET /\r\n\r\n", "GET  / HTTP/1.1\r\n\r\n", "GET / HTTP/1.1 \r\n\r\n", "G(T / HTTP/1.1\r\n\r\n",
            "GET / HTTP/11\r\n\r\n", "GET / http/1.1\r\n\r\n", "GET relative HTTP/1.1\r\n\r\n",
            "GET http://x/ HTTP/1.1\r\n\r\n", "GET /a\u{7F}b HTTP/1.1\r\n\r\n", "GET /\rx HTTP/1.1\r\n\r\n",
            "GET /ü HTTP/1.1\r\nHost: x\r\n\r\n",
        ] {
            #expect(status(of: line) == .badRequest, "\(line.debugDescription)")
        }
        #expect(status(of: "GET / HTTP/2.0\r\n\r\n") == .versionNotSupported)
        #expect(status(of: "GET / HTTP/0.9\r\n\r\n") == .versionNotSupported)
    }

    @Test func badHeadersAre400() {
        for head in [
            "Host: x\r\nNo-Colon\r\n", "Host: x\r\nBad Name: v\r\n", "Host: x\r\nName : v\r\n", "Host: x\r\n: v\r\n",
            "Host: x\r\nA: b\r\n folded\r\n", "Host: x\r\nA: b\u{0}c\r\n", "Host: x\r\nA: b\rc\r\n",
            "", "Host: a\r\nHost: b\r\n",
        ] {
            #expect(status(of: "GET / HTTP/1.1\r\n\(head)\r\n") == .badRequest, "\(head.debugDescription)")
        }
        #expect(status(of: "GET / HTTP/1.0\r\n\r\n") == nil)  // HTTP/1.0 needs no Host
    }

    @Test func contentLengthMustBeOneNumber() {
        let prefix = "POST / HTTP/1.1\r\nHost: x\r\n"
        for header in ["Content-Length: abc", "Content-Length: -1", "Content-Length: +1", "Content-Length: 1.0",
            "Content-Length: ", "Content-Length: 1\r\nContent-Length: 2", "Content-Length: 1, 2", "Content-Length: 0x10",
        ] {
            #expect(status(of: prefix + header + "\r\n\r\n" + "xx") == .badRequest, "\(header)")
        }
        // Identical copies are one value (RFC 9112 §6.3).
        #expect(status(of: prefix + "Content-Length: 2\r\nContent-Length: 2\r\n\r\nxx") == nil)
        #expect(status(of: prefix + "Content-Length: 2, 2\r\n\r\nxx") == nil)
    }

    @Test func oversizeHeadIs431AndOversizeBodyIs413BeforeItArrives() throws {
        let limits = HTTPLimits(maxHeadBytes: 256, maxHeaderCount: 4, maxBodyBytes: 100)
        let bigHeader = "GET / HTTP/1.1\r\nHost: x\r\nX: " + String(repeating: "a", count: 300) + "\r\n\r\n"
        #expect(status(of: bigHeader, limits: limits) == .headerFieldsTooLarge)
        // An endless head fails as soon as it passes the bound, without its end.
        var parser = HTTPRequestParser(limits: limits)
        parser.append(Array("GET / HTTP/1.1\r\nX: ".utf8) + Array(repeating: UInt8(ascii: "a"), count: 300))
        #expect(failure(&parser) == .headerFieldsTooLarge)
        // Later calls keep failing: framing is lost.
        #expect(failure(&parser) == .headerFieldsTooLarge)

        let manyHeaders = "GET / HTTP/1.1\r\nHost: x\r\nA: 1\r\nB: 1\r\nC: 1\r\nD: 1\r\n\r\n"
        #expect(status(of: manyHeaders, limits: limits) == .headerFieldsTooLarge)

        // The declared length alone triggers 413; no body byte has been sent.
        var bodyParser = HTTPRequestParser(limits: limits)
        bodyParser.append(Array("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 101\r\n\r\n".utf8))
        #expect(failure(&bodyParser) == .payloadTooLarge)
        #expect(status(of: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n", limits: limits) == .payloadTooLarge)
        #expect(status(of: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n" + String(repeating: "b", count: 100), limits: limits) == nil)
    }

    @Test func transferEncodingIs501AndUnknownExpectationsAre417() {
        #expect(status(of: "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n") == .notImplemented)
        #expect(status(of: "POST / HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nContent-Length: 1\r\n\r\nx") == .expectationFailed)
    }

    @Test func expectContinueIsSignalledOnceWhileTheBodyIsMissing() throws {
        var parser = HTTPRequestParser()
        parser.append(Array("POST / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n".utf8))
        #expect(try parser.nextRequest() == nil)
        let first = parser.takeContinueExpectation()
        let second = parser.takeContinueExpectation()
        #expect(first && !second)
        parser.append(Array("abc".utf8))
        #expect(try parser.nextRequest()?.body == Array("abc".utf8))
        let afterBody = parser.takeContinueExpectation()
        #expect(!afterBody)
    }
}
