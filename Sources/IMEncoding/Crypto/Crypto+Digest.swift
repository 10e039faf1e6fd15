import CCrypto

extension Crypto {
    /// The SHA-1 digest (20 bytes) of `bytes`. For signatures the contract fixes, not for new designs.
    public static func sha1(_ bytes: [UInt8]) -> [UInt8] {
        digest(bytes, EVP_sha1(), length: 20)
    }

    /// The SHA-256 digest (32 bytes) of `bytes`.
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        digest(bytes, EVP_sha256(), length: 32)
    }

    private static func digest(_ bytes: [UInt8], _ algorithm: OpaquePointer?, length: Int) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: length)
        var written: UInt32 = 0
        let ok = bytes.withUnsafeBytes { input in
            EVP_Digest(input.baseAddress, input.count, &output, &written, algorithm, nil)
        }
        // One-shot digests of memory fail only when libcrypto cannot allocate: nothing to recover.
        precondition(ok == 1 && Int(written) == length, "EVP_Digest failed")
        return output
    }
}
