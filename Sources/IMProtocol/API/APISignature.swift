import IMEncoding
/// The server API's request signature: lowercase hex SHA-1 of AppSecret + Nonce + Timestamp.
public enum APISignature {
    /// The signature a client sends for these values.
    public static func compute(appSecret: String, nonce: String, timestamp: String) -> String {
        Hex.encode(Crypto.sha1(Array((appSecret + nonce + timestamp).utf8)))
    }

    /// Whether `signature` matches, compared in constant time (hex case ignored).
    public static func isValid(_ signature: String, appSecret: String, nonce: String, timestamp: String) -> Bool {
        let expected = Array(compute(appSecret: appSecret, nonce: nonce, timestamp: timestamp).utf8)
        return Crypto.constantTimeEquals(Array(signature.lowercased().utf8), expected)
    }
}
