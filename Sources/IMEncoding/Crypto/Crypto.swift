import CCrypto

/// Hashes, HMAC, randomness and constant-time comparison over libcrypto.
///
/// Only what the contract needs: SHA-1 (API signatures), SHA-256 and HMAC-SHA256 (tokens).
public enum Crypto {
    /// Whether `a` and `b` hold the same bytes, in time independent of where they differ.
    ///
    /// Lengths are compared first and openly: a digest's length is no secret.
    public static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBytes { left in
            b.withUnsafeBytes { right in
                CRYPTO_memcmp(left.baseAddress, right.baseAddress, left.count) == 0
            }
        }
    }
}

/// libcrypto failed where it should not (no entropy, allocation failure).
public struct CryptoError: Error, Sendable, CustomStringConvertible {
    /// The libcrypto function that failed.
    public var function: String

    public var description: String { "libcrypto \(function) failed" }
}
