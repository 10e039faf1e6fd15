import IMHTTP
import Testing

struct HTTPResponseTests {
    private func parseAll(_ bytes: [UInt8], chunk: Int = .max, limits: HTTPLimits = HTTPLimits(), close: Bool = false) throws(HTTPParseError) -> [HTTPResponse] {
        var parser = HTTPResponseParser(limits: limits)
        var responses: [HTTPResponse] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + min(chunk, bytes.count))
            parser.append(bytes[offset..<end])
            offset = end
            while let response = try parser.nextResponse() { responses.append(response) }
        }
        if close, let last = try parser.finish() { responses.append(last) }
        return responses
    }

    @Test func jsonResponseSerializesWithLength() {
        let response = HTTPResponse.json(.ok, Array(#"{"code":200}"#.utf8))
        let text = String(decoding: response.serialized(), as: UTF8.self)
        #expect(text == "HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: 12\r\n\r\n{\"code\":200}")
        let closing = String(decoding: HTTPResponse(status: .unauthorized).serialized(closing: true), as: UTF8.self)
        #expect(closing == "HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    }

    @Test func serializerReplacesLengthAndNeutralizesLineBreaks() {
        var response = HTTPResponse(status: .ok, headers: ["Content-Length": "999", "X-Evil": "a\r\nSet-Cookie: b"], body: [1, 2])
        let text = String(decoding: response.serialized(), as: UTF8.self)
        #expect(!text.contains("999"))
        #expect(text.contains("X-Evil: a  Set-Cookie: b\r\n"))
        #expect(text.hasSuffix("Content-Length: 2\r\n\r\n\u{1}\u{2}"))
        response.status = .noContent
        #expect(String(decoding: response.serialized(), as: UTF8.self) == "HTTP/1.1 204 No Content\r\nX-Evil: a  Set-Cookie: b\r\n\r\n")
    }

    @Test func responsesRoundTripWholeAndSplitAtEveryByte() throws {
        let first = HTTPResponse.json(.ok, Array(#"{"code":200,"token":"t"}"#.utf8))
        let second = HTTPResponse(status: .badRequest, headers: ["X-A": "1"], body: Array("nope".utf8))
        let wire = first.serialized() + HTTPResponse(status: .noContent).serialized() + second.serialized()
        for chunk in [Int.max, 1, 2, 3, 5, 8] {
            let parsed = try parseAll(wire, chunk: chunk)
            #expect(parsed.map(\.status) == [.ok, .noContent, .badRequest])
            #expect(parsed[0].body == first.body)
            #expect(parsed[0].headers["content-type"] == "application/json; charset=utf-8")
            #expect(parsed[2].body == second.body)
            #expect(parsed[1].body.isEmpty)
        }
    }

    @Test func requestSerializationRoundTripsThroughTheServerParser() throws {
        var headers: HTTPHeaders = ["Host": "[::1]:8080", "Content-Type": "application/x-www-form-urlencoded"]
        headers.add(name: "Signature", value: "abc")
        let request = HTTPRequest(method: "POST", target: "/user/getToken.json", headers: headers, body: Array("userId=a".utf8))
        var parser = HTTPRequestParser()
        parser.append(request.serialized())
        let parsed = try #require(try parser.nextRequest())
        #expect(parsed.body == request.body)
        #expect(parsed.headers["content-length"] == "8")
        #expect(parsed.headers["signature"] == "abc")
        #expect(parsed.target == request.target)
    }

    @Test func interimResponsesAreSkipped() throws {
        let wire = Array("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".utf8)
        let parsed = try parseAll(wire)
        #expect(parsed.map(\.status) == [.ok])
    }

    @Test func bodiesWithoutLengthRunUntilClose() throws {
        let wire = Array("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nall of this".utf8)
        #expect(try parseAll(wire).isEmpty)
        let parsed = try parseAll(wire, chunk: 4, close: true)
        #expect(parsed.first?.body == Array("all of this".utf8))
        #expect(parsed.first?.version == .http1_0)
        #expect(parsed.first?.keepAlive == false)
    }

    @Test func chunkedBodiesAreDecoded() throws {
        let wire = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\nC \r\n, wide world\r\n0\r\nTrailer: x\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n".utf8)
        for chunk in [Int.max, 1, 3, 7] {
            let parsed = try parseAll(wire, chunk: chunk)
            #expect(parsed.map(\.status) == [.ok, .noContent])
            #expect(parsed.first?.body == Array("hello, wide world".utf8))
        }
    }

    @Test func malformedOrOversizeResponsesFail() {
        let limits = HTTPLimits(maxHeadBytes: 128, maxHeaderCount: 10, maxBodyBytes: 16)
        let bad = [
            "HTTP/1.1 20 OK\r\n\r\n", "HTTP/1.1 2000 OK\r\n\r\n", "HTTP/2 200 OK\r\n\r\n", "HTTP/1.1200 OK\r\n\r\n", "garbage\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: 17\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n11\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nab\r\n",
            "HTTP/1.1 200 OK\r\n\r\n" + String(repeating: "x", count: 17),
            "HTTP/1.1 200 OK\r\nX: " + String(repeating: "a", count: 200),
        ]
        for text in bad {
            #expect(throws: HTTPParseError.self, "\(text.debugDescription)") {
                _ = try parseAll(Array(text.utf8), limits: limits, close: true)
            }
        }
        #expect(throws: Never.self) { _ = try parseAll(Array("HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n".utf8), limits: limits) }
    }

    @Test func aCloseInTheMiddleIsAnError() throws {
        var parser = HTTPResponseParser()
        parser.append(Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc".utf8))
        #expect(try parser.nextResponse() == nil)
        #expect(throws: HTTPParseError.self) { _ = try parseAll(Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc".utf8), close: true) }
        var idle = HTTPResponseParser()
        #expect(try idle.finish() == nil)
    }
}
