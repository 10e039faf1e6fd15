import CCrypto

extension Crypto {
    /// `count` bytes from libcrypto's CSPRNG.
    public static func randomBytes(_ count: Int) throws(CryptoError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        guard count > 0 else { return bytes }
        guard RAND_bytes(&bytes, Int32(count)) == 1 else {
            throw CryptoError(function: "RAND_bytes")
        }
        return bytes
    }
}
