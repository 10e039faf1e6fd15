import IMEncoding
/// Issuing and verifying login tokens (the MQTT password), bound to an app key and secret.
public enum Token {
    /// A new token for `userID`, with 8 random bytes of nonce.
    ///
    /// Throws `TokenError.malformed` for an empty app key or an invalid user id, and
    /// `CryptoError` if the random generator fails.
    public static func issue(appKey: String, secret: String, userID: String, issuedAt: Int64) throws -> String {
        let nonce = Hex.encode(try Crypto.randomBytes(8))
        return try sign(TokenClaims(appKey: appKey, userID: userID, issuedAt: issuedAt, nonce: nonce), secret: secret)
    }

    /// The token for exactly `claims` (deterministic: same claims and secret, same bytes).
    public static func sign(_ claims: TokenClaims, secret: String) throws(TokenError) -> String {
        guard !claims.appKey.isEmpty else { throw .malformed("app key missing") }
        guard IMIdentifier.isValidUserID(claims.userID) else { throw .malformed("user id invalid") }
        guard claims.issuedAt >= 0 else { throw .malformed("issue time invalid") }
        guard !claims.nonce.isEmpty, claims.nonce.utf8.count <= 64, Hex.decode(claims.nonce) != nil else {
            throw .malformed("nonce invalid")
        }
        let payload = claims.payload
        return payload + "." + Base64URL.encode(signature(of: payload, secret: secret))
    }

    /// The claims of `token` when it is well formed, for `appKey`, and signed with `secret`.
    ///
    /// Expiry and invalidation times are the server's business: compare `issuedAt` yourself.
    public static func verify(_ token: String, appKey: String, secret: String) throws(TokenError) -> TokenClaims {
        let (payload, claims, presented) = try TokenClaims.split(token)
        guard claims.appKey == appKey else { throw .wrongAppKey }
        guard Crypto.constantTimeEquals(presented, signature(of: payload, secret: secret)) else {
            throw .badSignature
        }
        return claims
    }

    private static func signature(of payload: String, secret: String) -> [UInt8] {
        Crypto.hmacSHA256(key: Array(secret.utf8), message: Array(payload.utf8))
    }
}
