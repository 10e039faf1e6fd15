import IMProtocol
import Testing

struct APICredentialsTests {
    private func credentials(_ headers: [String: String]) throws(APICredentialError) -> APICredentials {
        let lowered = Dictionary(uniqueKeysWithValues: headers.map { ($0.key.lowercased(), $0.value) })
        return try APICredentials { lowered[$0.lowercased()] }
    }

    private let now: Int64 = 1_700_000_000_000

    @Test func readsSignedHeadersAndChecksThem() throws {
        let signature = APISignature.compute(appSecret: "s3cret", nonce: "n1", timestamp: String(now))
        let read = try credentials(["app-key": "k", "nonce": "n1", "timestamp": String(now), "SIGNATURE": signature])
        #expect(read.appKey == "k")
        #expect(read.timestampMillis == now)
        #expect(read.isSigned(withSecret: "s3cret"))
        #expect(!read.isSigned(withSecret: "other"))
        #expect(read.isFresh(now: now + 300_000))
        #expect(read.isFresh(now: now - 300_000))
        #expect(!read.isFresh(now: now + 300_001))
        #expect(!read.isFresh(now: Int64.min))
    }

    @Test func acceptsTheLegacyPrefixedNames() throws {
        let read = try credentials(["RC-App-Key": "k", "RC-Nonce": "n", "RC-Timestamp": "5", "RC-Signature": "x"])
        #expect(read.nonce == "n")
        #expect(read.timestamp == "5")
    }

    @Test func refusesMissingAndMalformedHeaders() {
        let complete = ["App-Key": "k", "Nonce": "n", "Timestamp": "1", "Signature": "s"]
        for name in complete.keys {
            var partial = complete
            partial[name] = nil
            #expect(throws: APICredentialError.missing(name)) { try credentials(partial) }
        }
        var long = complete
        long["Nonce"] = String(repeating: "n", count: 19)
        #expect(throws: APICredentialError.self) { try credentials(long) }
        long["Nonce"] = String(repeating: "n", count: 18)
        #expect(throws: Never.self) { try credentials(long) }
        for timestamp in ["-1", "12a", "+5", "99999999999999999999"] {
            var bad = complete
            bad["Timestamp"] = timestamp
            #expect(throws: APICredentialError.self) { try credentials(bad) }
        }
    }

    @Test func apiSignatureIsLowercaseHexSHA1OfSecretNonceTimestamp() {
        // printf '%s' 'MySecret14159261628' | sha1sum
        let signature = APISignature.compute(appSecret: "MySecret", nonce: "14159", timestamp: "261628")
        #expect(signature == "445ca61f42a2553b02473d623b576373cef64aa1")
        #expect(APISignature.isValid(signature, appSecret: "MySecret", nonce: "14159", timestamp: "261628"))
        #expect(APISignature.isValid(signature.uppercased(), appSecret: "MySecret", nonce: "14159", timestamp: "261628"))
        #expect(!APISignature.isValid(signature, appSecret: "MySecret", nonce: "14159", timestamp: "261629"))
        #expect(!APISignature.isValid(signature, appSecret: "Other", nonce: "14159", timestamp: "261628"))
        #expect(!APISignature.isValid("", appSecret: "MySecret", nonce: "14159", timestamp: "261628"))
    }
}
