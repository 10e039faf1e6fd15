import CSSL
#if canImport(Glibc)
import Glibc
#endif

extension TLSContext {
    /// A server context presenting `certificate` (PEM, chain allowed) and `key`.
    ///
    /// A key file that group or others may read is refused, as ssh refuses such keys: a
    /// key anyone on the machine can copy proves nothing. With `clientCA`, clients must
    /// present a certificate issued by one of its CAs. ALPN "mqtt" is chosen when offered.
    public static func server(certificate: String, key: String, clientCA: String? = nil) throws(TLSFailure) -> TLSContext {
        try checkPrivate(key)
        let context = try TLSContext(server: true)
        try context.loadIdentity(certificate: certificate, key: key)
        if let clientCA {
            try context.loadTrust(clientCA)
            if let names = SSL_load_client_CA_file(clientCA) { SSL_CTX_set_client_CA_list(context.pointer, names) }
            SSL_CTX_set_verify(context.pointer, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nil)
        }
        imsh_ssl_ctx_select_mqtt(context.pointer)
        // No session resumption is offered, so TLS 1.3 session tickets would only cost both
        // ends work and every client memory for tickets it never uses.
        _ = SSL_CTX_set_num_tickets(context.pointer, 0)
        return context
    }

    /// Refuses a key file with any permission bit for group or others.
    static func checkPrivate(_ key: String) throws(TLSFailure) {
        var info = stat()
        guard stat(key, &info) == 0 else {
            throw TLSFailure(.configuration, "cannot read the key file \(key): \(String(cString: strerror(errno)))")
        }
        let loose = info.st_mode & 0o077
        guard loose == 0 else {
            let mode = String(info.st_mode & 0o777, radix: 8)
            throw TLSFailure(.configuration, "the private key \(key) is readable by group or others (mode \(mode)); "
                + "it must be private to its owner: run chmod 600 \(key)")
        }
    }
}
