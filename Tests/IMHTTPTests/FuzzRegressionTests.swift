import IMHTTP
import Testing

/// Inputs found by the fuzz target Fuzz/Targets/HTTPFuzzTarget.swift, fed as it found them.
struct FuzzRegressionTests {
    /// The limits the fuzz target uses, small so that inputs of a few hundred bytes reach them.
    static let fuzzLimits = HTTPLimits(maxHeadBytes: 256, maxHeaderCount: 8, maxBodyBytes: 512)

    static func bytes(hex: String) -> [UInt8] {
        let digits = Array(hex.utf8).filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\n") }
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
    }

    /// Responses then the stream's end, fed in pieces of `pieceSize` bytes; the error if any.
    static func responses(_ bytes: [UInt8], pieceSize: Int, limits: HTTPLimits) -> Result<[HTTPResponse], HTTPParseError> {
        var parser = HTTPResponseParser(limits: limits)
        var responses: [HTTPResponse] = []
        do {
            for start in stride(from: 0, to: bytes.count, by: pieceSize) {
                parser.append(bytes[start..<min(bytes.count, start + pieceSize)])
                while let response = try parser.nextResponse() { responses.append(response) }
            }
            if let last = try parser.finish() { responses.append(last) }
            return .success(responses)
        } catch {
            return .failure(error)
        }
    }

    /// A chunk line longer than `maxHeadBytes` was refused when it arrived in pieces, but taken
    /// (and its chunk read) when its line end came in the same read.
    @Test func chunkLineOverTheLimitIsRefusedHoweverItArrives() {
        let found = Self.bytes(hex: """
            485454502f312e3120323030204f4b0d0a5472616e736665722d456e636f64696e673a206368756e6b6564090a0d0a35
            3b0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000
            0000000000000000000000000000000000000000000000000000000000000000000000000000001cffffffffffffffff
            ffffffffffffffff4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d
            4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d
            4d4d4d4d4d4d4d4d4d4d4d4d4d4d4d4dffffffffffffffffffffffffffff05ffffffffffffffffffffffffffffffffff
            ffffffffffffffffffffffff0000000000000000000000000000000000000065010036320d0a57696b690d0a360d0a70
            656469610d0a33350a0d0a
            """)
        let refused = HTTPParseError(.badGateway, "chunk line exceeds 256 bytes")
        for pieceSize in [found.count, 1, 7] {
            #expect(Self.responses(found, pieceSize: pieceSize, limits: Self.fuzzLimits) == .failure(refused), "pieces of \(pieceSize)")
        }
    }

    /// The same rule at the edge: a line of exactly `maxHeadBytes` bytes with its LF passes, one more byte does not.
    @Test func chunkLineLimitCountsTheLineEnd() {
        let head = Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
        func response(extensionLength: Int) -> [UInt8] {
            head + Array("1;".utf8) + Array(repeating: UInt8(ascii: "x"), count: extensionLength) + Array("\r\nA\r\n0\r\n\r\n".utf8)
        }
        // "1;" + extension + CRLF is 256 bytes.
        let fits = response(extensionLength: 252), over = response(extensionLength: 253)
        for pieceSize in [fits.count, 1, 5] {
            let parsed = Self.responses(fits, pieceSize: pieceSize, limits: Self.fuzzLimits)
            #expect((try? parsed.get())?.map(\.body) == [Array("A".utf8)], "pieces of \(pieceSize)")
            #expect(Self.responses(over, pieceSize: pieceSize, limits: Self.fuzzLimits) == .failure(HTTPParseError(.badGateway, "chunk line exceeds 256 bytes")))
        }
    }
}
