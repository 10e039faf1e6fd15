/// Why a token was refused. Every case maps to `im-error` `token-incorrect` (CONNACK 0x86).
public enum TokenError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not `<payload>.<signature>` with the fields of version 1.
    case malformed(String)
    /// Well formed, but issued for another app key.
    case wrongAppKey
    /// Well formed, but not signed with this app's secret (tampered, or the secret rotated).
    case badSignature

    public var description: String {
        switch self {
        case .malformed(let reason): return "malformed token: \(reason)"
        case .wrongAppKey: return "token issued for another app key"
        case .badSignature: return "token signature does not match"
        }
    }
}
