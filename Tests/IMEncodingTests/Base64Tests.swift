import IMEncoding
import Testing

/// Base64 as `Sec-WebSocket-Key` and `-Accept` carry it, checked against RFC 6455's example.
struct Base64Tests {
    @Test func theRFCsKeyGivesTheRFCsAcceptValue() {
        let key = "dGhlIHNhbXBsZSBub25jZQ=="
        #expect(Base64.decode(key) == Array("the sample nonce".utf8))
        #expect(Base64.encode(Crypto.sha1(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))) == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func paddingAndAlphabetAreStrict() {
        #expect(Base64.encode([0xFB, 0xFF]) == "+/8=")
        #expect(Base64.decode("+/8=") == [0xFB, 0xFF])
        #expect(Base64.decode("-_8=") == nil && Base64.decode("+/8") == nil && Base64.decode("+/8==") == nil)
    }
}
