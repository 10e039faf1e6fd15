import IMEncoding
import Testing

struct CryptoTests {
    @Test func sha1OfABCMatchesFIPS180() {
        #expect(Hex.encode(Crypto.sha1(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(Hex.encode(Crypto.sha1([])) == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    }

    @Test func sha256OfABCMatchesFIPS180() {
        #expect(Hex.encode(Crypto.sha256(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func hmacSHA256MatchesRFC4231() {
        let case1 = Crypto.hmacSHA256(key: Array(repeating: 0x0B, count: 20), message: Array("Hi There".utf8))
        #expect(Hex.encode(case1) == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        let case2 = Crypto.hmacSHA256(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        #expect(Hex.encode(case2) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func randomBytesHaveTheLengthAndDiffer() throws {
        let first = try Crypto.randomBytes(16)
        let second = try Crypto.randomBytes(16)
        #expect(first.count == 16)
        #expect(first != second)
        #expect(try Crypto.randomBytes(0).isEmpty)
    }

    @Test func constantTimeEquality() {
        #expect(Crypto.constantTimeEquals([1, 2, 3], [1, 2, 3]))
        #expect(!Crypto.constantTimeEquals([1, 2, 3], [1, 2, 4]))
        #expect(!Crypto.constantTimeEquals([1, 2, 3], [1, 2]))
        #expect(Crypto.constantTimeEquals([], []))
    }

    @Test func hexRoundTripsAndRefusesBadDigits() {
        #expect(Hex.encode([0x00, 0xAB, 0xFF]) == "00abff")
        #expect(Hex.decode("00abFF") == [0x00, 0xAB, 0xFF])
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("zz") == nil)
        #expect(Hex.decode("") == [])
    }

    @Test func base64URLMatchesRFC4648WithoutPadding() {
        let vectors = ["": "", "f": "Zg", "fo": "Zm8", "foo": "Zm9v", "foob": "Zm9vYg", "fooba": "Zm9vYmE", "foobar": "Zm9vYmFy"]
        for (plain, encoded) in vectors {
            #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
            #expect(Base64URL.decode(encoded) == Array(plain.utf8))
        }
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
    }

    @Test func base64URLRefusesEverythingButTheCanonicalForm() {
        #expect(Base64URL.decode("Zg==") == nil)  // padding
        #expect(Base64URL.decode("+/8") == nil)  // standard alphabet
        #expect(Base64URL.decode("Zm9v Yg") == nil)  // whitespace
        #expect(Base64URL.decode("Z") == nil)  // impossible length
        #expect(Base64URL.decode("Zh") == nil)  // leftover bits set: "Zg" is the only form of "f"
        #expect(Base64URL.decode("Zé") == nil)  // non-ASCII
    }
}
