extension Crypto {
    /// `count` bytes from libcrypto's CSPRNG, taken from the process's `RandomPool`.
    public static func randomBytes(_ count: Int) throws(CryptoError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var failure: CryptoError?
        bytes.withUnsafeMutableBytes { buffer in
            do throws(CryptoError) { try RandomPool.shared.fill(buffer) } catch { failure = error }
        }
        if let failure { throw failure }
        return bytes
    }
}
