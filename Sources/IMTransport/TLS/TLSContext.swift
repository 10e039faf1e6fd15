import CSSL
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// One OpenSSL `SSL_CTX`: protocol limits, trust, our certificate, shared by many connections.
///
/// TLS 1.2 and 1.3 only; renegotiation off. A client context keeps what it checks after the
/// handshake (`insecure`, pins); a server context may require client certificates. Contexts
/// are immutable once built, which is what lets connections on every loop share one; a
/// server reloads its certificate by building a new context (`TLSServerIdentity`).
public final class TLSContext: @unchecked Sendable {
    let pointer: OpaquePointer
    let isServer: Bool
    /// Client side: skip chain, name and date checks.
    let insecure: Bool
    /// Client side: accepted SPKI SHA-256 digests, base64; empty means no pinning.
    let pins: Set<String>

    init(server: Bool, insecure: Bool = false, pins: Set<String> = []) throws(TLSFailure) {
        guard let context = SSL_CTX_new(server ? TLS_server_method() : TLS_client_method()) else {
            throw TLSFailure(.configuration, "cannot create a TLS context: \(TLSContext.errorQueueText())")
        }
        pointer = context
        isServer = server
        self.insecure = insecure
        self.pins = pins
        _ = imsh_ssl_ctx_set_min_version(context, imsh_ssl_version_tls1_2())
        _ = imsh_ssl_ctx_set_mode(context, imsh_ssl_mode_partial_writes())
        _ = imsh_ssl_ctx_set_options(context, imsh_ssl_op_no_renegotiation())
    }

    deinit {
        SSL_CTX_free(pointer)
    }

    private static let clientCache = Mutex<[TLSClientConfiguration: TLSContext]>([:])

    /// The client context for `configuration`, built once and shared: loading the system
    /// trust store costs milliseconds, too much to repeat for each of thousands of sessions.
    public static func client(_ configuration: TLSClientConfiguration) throws(TLSFailure) -> TLSContext {
        if let cached = clientCache.withLock({ $0[configuration] }) { return cached }
        let context = try TLSContext(
            server: false, insecure: configuration.insecure, pins: Set(configuration.pinnedSHA256))
        try context.loadTrust(configuration.caPath)
        if let certificate = configuration.certificatePath {
            try context.loadIdentity(certificate: certificate, key: configuration.keyPath ?? certificate)
        } else if configuration.keyPath != nil {
            throw TLSFailure(.configuration, "a TLS key is given without a certificate (add \"cert\")")
        }
        if !configuration.alpn.isEmpty {
            var wire: [UInt8] = []
            for name in configuration.alpn {
                wire.append(UInt8(name.utf8.count))
                wire += Array(name.utf8)
            }
            _ = SSL_CTX_set_alpn_protos(context.pointer, wire, UInt32(wire.count))
        }
        return clientCache.withLock { cache in
            if let raced = cache[configuration] { return raced }
            cache[configuration] = context
            return context
        }
    }

    /// Trusts the CAs in `path` (a PEM file or a hashed directory), or the system's when nil.
    func loadTrust(_ path: String?) throws(TLSFailure) {
        guard let path else {
            _ = SSL_CTX_set_default_verify_paths(pointer)
            return
        }
        let isDirectory = try Self.checkReadable(path, what: "CA file")
        let loaded = isDirectory
            ? SSL_CTX_load_verify_locations(pointer, nil, path)
            : SSL_CTX_load_verify_locations(pointer, path, nil)
        guard loaded == 1 else {
            throw TLSFailure(.configuration, "cannot load CA certificates from \(path): \(Self.errorQueueText()) "
                + "(expected PEM certificates)")
        }
    }

    /// Presents `certificate` (PEM, leaf first, chain allowed) with its private `key`.
    func loadIdentity(certificate: String, key: String) throws(TLSFailure) {
        _ = try Self.checkReadable(certificate, what: "certificate file")
        _ = try Self.checkReadable(key, what: "key file")
        guard SSL_CTX_use_certificate_chain_file(pointer, certificate) == 1 else {
            throw TLSFailure(.configuration, "cannot load the certificate \(certificate): \(Self.errorQueueText()) "
                + "(expected a PEM certificate)")
        }
        guard SSL_CTX_use_PrivateKey_file(pointer, key, SSL_FILETYPE_PEM) == 1 else {
            let detail = Self.errorQueueText()
            if detail.contains("key values mismatch") {
                throw TLSFailure(.configuration, "the key \(key) does not match the certificate \(certificate)")
            }
            throw TLSFailure(.configuration, "cannot load the private key \(key): \(detail) (expected a PEM key)")
        }
        guard SSL_CTX_check_private_key(pointer) == 1 else {
            ERR_clear_error()
            throw TLSFailure(.configuration, "the key \(key) does not match the certificate \(certificate)")
        }
    }

    /// Throws unless `path` exists and can be read; answers whether it is a directory.
    static func checkReadable(_ path: String, what: String) throws(TLSFailure) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw TLSFailure(.configuration, "cannot read the \(what) \(path): \(String(cString: strerror(errno)))")
        }
        let isDirectory = info.st_mode & S_IFMT == S_IFDIR
        guard access(path, isDirectory ? R_OK | X_OK : R_OK) == 0 else {
            throw TLSFailure(.configuration, "cannot read the \(what) \(path): \(String(cString: strerror(errno)))")
        }
        return isDirectory
    }

    /// The errors OpenSSL queued on this thread, joined; the queue is left empty.
    static func errorQueueText() -> String {
        var reasons: [String] = []
        while case let code = ERR_get_error(), code != 0 {
            if let reason = ERR_reason_error_string(code) {
                reasons.append(String(cString: reason))
            } else {
                reasons.append("error \(code)")
            }
        }
        return reasons.isEmpty ? "unknown error" : reasons.joined(separator: "; ")
    }
}
