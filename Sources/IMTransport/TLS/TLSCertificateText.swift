import CSSL

/// A certificate's fields as people read them, for error messages.
struct TLSCertificateText {
    let certificate: OpaquePointer

    /// The subject, RFC 2253 style ("CN=localhost,O=Example").
    var subject: String { Self.name(X509_get_subject_name(certificate)) }
    var issuer: String { Self.name(X509_get_issuer_name(certificate)) }
    /// "Nov 25 13:00:00 2026 GMT".
    var notAfter: String { Self.printed { ASN1_TIME_print($0, X509_get0_notAfter(certificate)) } }
    var notBefore: String { Self.printed { ASN1_TIME_print($0, X509_get0_notBefore(certificate)) } }

    /// The subjectAltName entries ("DNS:localhost, IP Address:127.0.0.1"), or "none".
    var alternativeNames: String {
        let index = X509_get_ext_by_NID(certificate, NID_subject_alt_name, -1)
        guard index >= 0, let extensionField = X509_get_ext(certificate, index) else { return "no subjectAltName" }
        return Self.printed { X509V3_EXT_print($0, extensionField, 0, 0) }
    }

    /// SHA-256 of the DER SubjectPublicKeyInfo, base64: the form of `pinSHA256`.
    var publicKeySHA256: String {
        guard let key = X509_get_X509_PUBKEY(certificate) else { return "" }
        var der: UnsafeMutablePointer<UInt8>?
        let length = i2d_X509_PUBKEY(key, &der)
        guard length > 0, let der else { return "" }
        defer { CRYPTO_free(der, #fileID, #line) }
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        _ = SHA256(der, Int(length), &digest)
        var encoded = [UInt8](repeating: 0, count: 64)
        let count = EVP_EncodeBlock(&encoded, digest, Int32(digest.count))
        return String(decoding: encoded[..<Int(count)], as: UTF8.self)
    }

    private static func name(_ name: OpaquePointer?) -> String {
        printed { X509_NAME_print_ex($0, name, 0, imsh_xn_flag_rfc2253()) }
    }

    /// What `body` prints into a memory BIO.
    private static func printed(_ body: (OpaquePointer) -> Int32) -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { return "?" }
        defer { BIO_free(bio) }
        _ = body(bio)
        var bytes = [UInt8](repeating: 0, count: 1024)
        let count = BIO_read(bio, &bytes, Int32(bytes.count))
        return count > 0 ? String(decoding: bytes[..<Int(count)], as: UTF8.self) : "?"
    }
}
