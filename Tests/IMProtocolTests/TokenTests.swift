import IMEncoding
import IMProtocol
import Testing

struct TokenTests {
    private let claims = TokenClaims(appKey: "app-key", userID: "alice", issuedAt: 1_700_000_000_000, nonce: "0011223344556677")

    @Test func signingIsDeterministicAndMatchesTheFormat() throws {
        // Computed independently (Python: base64url of the JSON, HMAC-SHA256 with key "sekret").
        let expected = "eyJ2IjoxLCJrIjoiYXBwLWtleSIsInUiOiJhbGljZSIsInQiOjE3MDAwMDAwMDAwMDAsIm4iOiIwMDExMjIzMzQ0NTU2Njc3In0"
            + ".K6SyLilaG9bauhp4IBAVqNh5zZ1KuGBYBviq81QoqmM"
        #expect(try Token.sign(claims, secret: "sekret") == expected)
        #expect(try Token.verify(expected, appKey: "app-key", secret: "sekret") == claims)
    }

    @Test func issuedTokensRoundTripWithFreshNonces() throws {
        let first = try Token.issue(appKey: "k1", secret: "s1", userID: "user_1", issuedAt: 42)
        let second = try Token.issue(appKey: "k1", secret: "s1", userID: "user_1", issuedAt: 42)
        #expect(first != second)
        let verified = try Token.verify(first, appKey: "k1", secret: "s1")
        #expect(verified.userID == "user_1")
        #expect(verified.issuedAt == 42)
        #expect(verified.nonce.utf8.count == 16)
    }

    @Test func claimsAreReadableWithoutTheSecret() throws {
        let token = try Token.issue(appKey: "k+/\"odd", secret: "s", userID: "a=b+c", issuedAt: 7)
        let read = try TokenClaims.read(token)
        #expect(read.appKey == "k+/\"odd")
        #expect(read.userID == "a=b+c")
        #expect(read.issuedAt == 7)
    }

    @Test func anotherAppKeyOrSecretIsRefused() throws {
        let token = try Token.sign(claims, secret: "sekret")
        #expect(throws: TokenError.wrongAppKey) { try Token.verify(token, appKey: "other", secret: "sekret") }
        #expect(throws: TokenError.badSignature) { try Token.verify(token, appKey: "app-key", secret: "rotated") }
    }

    @Test func tamperedPayloadOrSignatureIsRefused() throws {
        let token = try Token.sign(claims, secret: "sekret")
        let parts = token.split(separator: ".").map(String.init)
        // Same shape, another user: a payload the secret never signed.
        var forged = claims
        forged.userID = "mallory"
        let forgedPayload = try Token.sign(forged, secret: "guess").split(separator: ".")[0]
        #expect(throws: TokenError.badSignature) {
            try Token.verify("\(forgedPayload).\(parts[1])", appKey: "app-key", secret: "sekret")
        }
        // Flip one bit of the signature.
        var signature = try #require(Base64URL.decode(parts[1]))
        signature[5] ^= 0x01
        #expect(throws: TokenError.badSignature) {
            try Token.verify("\(parts[0]).\(Base64URL.encode(signature))", appKey: "app-key", secret: "sekret")
        }
    }

    @Test func garbageIsMalformedNotACrash() {
        let garbage = [
            "", ".", "abc", "a.b.c", "no-dot-at-all", "!!!.###",
            "eyJ2IjoxfQ.", ".K6SyLilaG9bauhp4IBAVqNh5zZ1KuGBYBviq81QoqmM",
            // payload "not json"
            Base64URL.encode(Array("not json".utf8)) + ".K6SyLilaG9bauhp4IBAVqNh5zZ1KuGBYBviq81QoqmM",
            // JSON of the wrong shape
            Base64URL.encode(Array("[1,2]".utf8)) + ".K6SyLilaG9bauhp4IBAVqNh5zZ1KuGBYBviq81QoqmM",
            Base64URL.encode(Array(#"{"v":2,"k":"a","u":"b","t":1,"n":"00"}"#.utf8)) + ".K6SyLilaG9bauhp4IBAVqNh5zZ1KuGBYBviq81QoqmM",
            Base64URL.encode(Array(#"{"v":1,"k":"a","u":"b/c","t":1,"n":"00"}"#.utf8)) + ".K6SyLilaG9bauhp4IBAVqNh5zZ1KuGBYBviq81QoqmM",
            Base64URL.encode(Array(#"{"v":1,"k":"a","u":"b","t":1,"n":"00","x":0}"#.utf8)) + ".K6SyLilaG9bauhp4IBAVqNh5zZ1KuGBYBviq81QoqmM",
            // a short signature
            Base64URL.encode(Array(#"{"v":1,"k":"a","u":"b","t":1,"n":"00"}"#.utf8)) + ".AAAA",
            String(repeating: "A", count: 5000) + ".x",
        ]
        for token in garbage {
            do {
                _ = try Token.verify(token, appKey: "a", secret: "s")
                Issue.record("accepted \(token)")
            } catch {
                guard case .malformed = error else {
                    Issue.record("\(token): \(error), wanted malformed")
                    continue
                }
            }
            #expect(throws: TokenError.self) { try TokenClaims.read(token) }
        }
    }

    @Test func signingRefusesClaimsThatWouldNotVerify() {
        for bad in [
            TokenClaims(appKey: "", userID: "u", issuedAt: 1, nonce: "00"),
            TokenClaims(appKey: "k", userID: "bad/user", issuedAt: 1, nonce: "00"),
            TokenClaims(appKey: "k", userID: "u", issuedAt: -1, nonce: "00"),
            TokenClaims(appKey: "k", userID: "u", issuedAt: 1, nonce: "xyz"),
        ] {
            #expect(throws: TokenError.self) { try Token.sign(bad, secret: "s") }
        }
    }
}
