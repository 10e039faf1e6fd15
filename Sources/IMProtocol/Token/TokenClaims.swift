import IMEncoding
import IMJSON

/// What a token says: app key, user, issue time and nonce. Readable without the secret.
///
/// Wire form: `<payload>.<signature>`; payload is unpadded base64url of the compact JSON
/// `{"v":1,"k":appKey,"u":userId,"t":issuedAtMillis,"n":nonceHex}` in that order, signature
/// is unpadded base64url of HMAC-SHA256(app secret, payload text).
public struct TokenClaims: Hashable, Sendable {
    /// The format version; only 1 exists.
    public static let currentVersion: Int64 = 1
    /// Longer tokens are refused before any decoding.
    public static let maxTokenLength = 2048

    public var appKey: String
    public var userID: String
    /// Milliseconds since the epoch.
    public var issuedAt: Int64
    /// Lowercase hex; makes two tokens issued in the same millisecond differ.
    public var nonce: String

    public init(appKey: String, userID: String, issuedAt: Int64, nonce: String) {
        self.appKey = appKey
        self.userID = userID
        self.issuedAt = issuedAt
        self.nonce = nonce
    }

    /// The claims of `token`, checking its form but NOT its signature.
    ///
    /// For the client engine (naming its local database after app key and user) and for
    /// diagnostics; never trust these claims for access decisions, use `Token.verify`.
    public static func read(_ token: String) throws(TokenError) -> TokenClaims {
        try split(token).claims
    }

    /// The payload text, its claims and the signature bytes of a well-formed token.
    static func split(_ token: String) throws(TokenError) -> (payload: String, claims: TokenClaims, signature: [UInt8]) {
        guard !token.isEmpty else { throw .malformed("empty") }
        guard token.utf8.count <= maxTokenLength else { throw .malformed("longer than \(maxTokenLength) bytes") }
        let parts = token.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw .malformed("expected <payload>.<signature>") }
        let payload = String(decoding: parts[0], as: UTF8.self)
        guard let signature = Base64URL.decode(String(decoding: parts[1], as: UTF8.self)), signature.count == 32 else {
            throw .malformed("signature is not 32 bytes of base64url")
        }
        guard let json = Base64URL.decode(payload), !json.isEmpty else {
            throw .malformed("payload is not base64url")
        }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: json)
        } catch {
            throw .malformed("payload is not JSON (\(error.reason))")
        }
        return (payload, try claims(from: value), signature)
    }

    private static func claims(from value: JSONValue) throws(TokenError) -> TokenClaims {
        guard let object = value.objectValue, Set(object.keys) == ["v", "k", "u", "t", "n"] else {
            throw .malformed("payload must hold exactly v, k, u, t, n")
        }
        guard object["v"]?.integerValue == currentVersion else { throw .malformed("unsupported version") }
        guard let appKey = object["k"]?.stringValue, !appKey.isEmpty else { throw .malformed("app key missing") }
        guard let userID = object["u"]?.stringValue, IMIdentifier.isValidUserID(userID) else {
            throw .malformed("user id invalid")
        }
        guard let issuedAt = object["t"]?.integerValue, issuedAt >= 0 else { throw .malformed("issue time invalid") }
        guard let nonce = object["n"]?.stringValue, !nonce.isEmpty, nonce.utf8.count <= 64, Hex.decode(nonce) != nil else {
            throw .malformed("nonce invalid")
        }
        return TokenClaims(appKey: appKey, userID: userID, issuedAt: issuedAt, nonce: nonce)
    }

    /// The payload text: base64url of the compact JSON, fields in fixed order.
    var payload: String {
        let json: JSONValue = [
            "v": .integer(Self.currentVersion), "k": .string(appKey), "u": .string(userID),
            "t": .integer(issuedAt), "n": .string(nonce),
        ]
        return Base64URL.encode(json.encoded())
    }
}
