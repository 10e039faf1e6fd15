import CSSL
#if canImport(Glibc)
import Glibc
#endif

/// A small CA and a server certificate it signs, for trying TLS in one command (`imserver cert`).
///
/// ECDSA P-256 keys, SHA-256 signatures; the CA is valid ten years, the server certificate
/// 397 days (what browsers accept), for the given DNS names and IP addresses. Files are
/// created 0600 without following symlinks and never overwritten: a CA key is not something
/// to replace by accident.
public enum TLSDevelopmentCertificates {
    /// The files written, in `directory`.
    public static let fileNames = ["ca.pem", "ca.key", "server.pem", "server.key"]

    /// Writes `ca.pem`, `ca.key`, `server.pem` and `server.key` into `directory` (which must exist).
    public static func write(to directory: String, hosts: [TLSCertificateHost]) throws(TLSFailure) {
        guard !hosts.isEmpty else { throw TLSFailure(.configuration, "name at least one host for the server certificate") }
        for name in fileNames where access(directory + "/" + name, F_OK) == 0 {
            throw TLSFailure(.configuration, "\(directory)/\(name) exists; choose another directory or remove the old files")
        }
        let caKey = try newKey(), serverKey = try newKey()
        defer {
            EVP_PKEY_free(caKey)
            EVP_PKEY_free(serverKey)
        }
        let ca = try certificate(subject: "imsh development CA", key: caKey, issuer: nil, days: 3650, extensions: [
            (NID_basic_constraints, "critical,CA:TRUE"), (NID_key_usage, "critical,keyCertSign,cRLSign"),
        ])
        defer { X509_free(ca) }
        let names = hosts.map(\.subjectAltName).joined(separator: ",")
        // A Common Name holds 64 characters (RFC 5280), and a longer one left the subject
        // empty; clients match the subjectAltName anyway, so the CN is any host that fits.
        let commonName = hosts.first { $0.text.count <= 64 }?.text ?? "imsh development server"
        let server = try certificate(subject: commonName, key: serverKey, issuer: (ca, caKey), days: 397, extensions: [
            (NID_basic_constraints, "critical,CA:FALSE"), (NID_key_usage, "critical,digitalSignature"),
            (NID_ext_key_usage, "serverAuth"), (NID_subject_alt_name, names),
        ])
        defer { X509_free(server) }
        try save(directory + "/ca.pem") { PEM_write_X509($0, ca) }
        try save(directory + "/ca.key") { PEM_write_PrivateKey($0, caKey, nil, nil, 0, nil, nil) }
        try save(directory + "/server.pem") { PEM_write_X509($0, server) }
        try save(directory + "/server.key") { PEM_write_PrivateKey($0, serverKey, nil, nil, 0, nil, nil) }
    }

    private static func newKey() throws(TLSFailure) -> OpaquePointer {
        guard let key = imsh_ec_p256_key() else { throw failure("generate a P-256 key") }
        return key
    }

    /// A signed certificate for `subject`; self-signed when `issuer` is nil.
    private static func certificate(
        subject: String, key: OpaquePointer, issuer: (certificate: OpaquePointer, key: OpaquePointer)?, days: Int,
        extensions: [(Int32, String)]
    ) throws(TLSFailure) -> OpaquePointer {
        guard let x509 = X509_new() else { throw failure("create a certificate") }
        var serial = [UInt8](repeating: 0, count: 16)
        _ = RAND_bytes(&serial, Int32(serial.count))
        serial[0] &= 0x7F
        let number = BN_bin2bn(serial, Int32(serial.count), nil)
        defer { BN_free(number) }
        _ = X509_set_version(x509, 2)
        _ = BN_to_ASN1_INTEGER(number, X509_get_serialNumber(x509))
        // An hour back, so that a clock slightly behind still accepts a fresh certificate.
        _ = X509_gmtime_adj(X509_getm_notBefore(x509), -3600)
        _ = X509_gmtime_adj(X509_getm_notAfter(x509), days * 86_400)
        _ = X509_set_pubkey(x509, key)
        let name = X509_get_subject_name(x509)
        _ = X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, subject, -1, -1, 0)
        _ = X509_set_issuer_name(x509, issuer.map { X509_get_subject_name($0.certificate) } ?? name)
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer?.certificate ?? x509, x509, nil, nil, 0)
        for (nid, value) in extensions {
            guard let field = X509V3_EXT_conf_nid(nil, &context, nid, value) else {
                X509_free(x509)
                throw failure("add the extension \(value)")
            }
            _ = X509_add_ext(x509, field, -1)
            X509_EXTENSION_free(field)
        }
        guard X509_sign(x509, issuer?.key ?? key, EVP_sha256()) > 0 else {
            X509_free(x509)
            throw failure("sign the certificate for \(subject)")
        }
        return x509
    }

    /// Creates `path` (0600, no symlink followed, not overwritten) and writes what `body` prints.
    private static func save(_ path: String, _ body: (UnsafeMutablePointer<FILE>) -> Int32) throws(TLSFailure) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0, let file = fdopen(fd, "w") else {
            throw TLSFailure(.configuration, "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        let written = body(file)
        guard fclose(file) == 0, written == 1 else { throw failure("write \(path)") }
    }

    private static func failure(_ what: String) -> TLSFailure {
        TLSFailure(.configuration, "cannot \(what): \(TLSContext.errorQueueText())")
    }
}
