import CCrypto

extension Crypto {
    /// HMAC-SHA256 (32 bytes) of `message` under `key`.
    public static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        var written: UInt32 = 0
        let result = key.withUnsafeBytes { keyBytes in
            message.withUnsafeBufferPointer { messageBytes in
                HMAC(
                    EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count),
                    messageBytes.baseAddress, messageBytes.count, &output, &written)
            }
        }
        precondition(result != nil && written == 32, "HMAC-SHA256 failed")
        return output
    }
}
