import CSSL
#if canImport(Glibc)
import Glibc
#endif

extension TLSStream {
    /// Prepares a client session to send `serverName` as SNI and to check it in the certificate.
    func expect(serverName: String) {
        let isAddress = SocketAddress(ipAddress: serverName, port: 0) != nil
        if isAddress {
            _ = X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), serverName)
        } else {
            // SNI carries host names only (RFC 6066), never addresses.
            _ = imsh_ssl_set_sni(ssl, serverName)
            _ = SSL_set1_host(ssl, serverName)
        }
    }

    /// After a client handshake: refuses what the context does not accept.
    ///
    /// The handshake itself runs without aborting on a bad chain, so that the refusal here
    /// can name the certificate; nothing is sent over the link before this check passes.
    func verifyPeer(serverName: String) throws(TLSFailure) {
        guard let leaf = SSL_get0_peer_certificate(ssl) else {
            throw TLSFailure(.verification, "the server presented no certificate")
        }
        let text = TLSCertificateText(certificate: leaf)
        if !context.insecure {
            let result = Int32(SSL_get_verify_result(ssl))
            if result != X509_V_OK { throw Self.verificationFailure(result, text, serverName: serverName) }
        }
        guard !context.pins.isEmpty else { return }
        var offered: [String] = []
        if let chain = SSL_get_peer_cert_chain(ssl) {
            for index in 0..<OPENSSL_sk_num(chain) {
                guard let raw = OPENSSL_sk_value(chain, index) else { continue }
                offered.append(TLSCertificateText(certificate: OpaquePointer(raw)).publicKeySHA256)
            }
        } else {
            offered.append(text.publicKeySHA256)
        }
        guard offered.contains(where: context.pins.contains) else {
            throw TLSFailure(.pinMismatch, "no certificate of the server's chain matches pinSHA256: "
                + "the server's key '\(text.subject)' has SHA-256 \(offered.first ?? "?") "
                + "(the certificate may be valid, but it is not the pinned key)")
        }
    }

    private static func verificationFailure(_ code: Int32, _ leaf: TLSCertificateText, serverName: String) -> TLSFailure {
        let reason = String(cString: X509_verify_cert_error_string(Int(code)))
        let subject = "'\(leaf.subject)'"
        switch code {
        case X509_V_ERR_CERT_HAS_EXPIRED:
            return TLSFailure(.verification, "the server certificate \(subject) expired on \(leaf.notAfter)")
        case X509_V_ERR_CERT_NOT_YET_VALID:
            return TLSFailure(.verification, "the server certificate \(subject) is not valid before \(leaf.notBefore)")
        case X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH:
            return TLSFailure(.verification, "the server certificate \(subject) is for \(leaf.alternativeNames), "
                + "not for '\(serverName)' (connect by one of those names, or set tls.serverName)")
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT,
            X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN,
            X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
            return TLSFailure(.verification, "the server certificate \(subject) issued by '\(leaf.issuer)' "
                + "is not trusted: \(reason) (give the issuing CA as tls.ca)")
        default:
            return TLSFailure(.verification, "the server certificate \(subject) issued by '\(leaf.issuer)' "
                + "failed verification: \(reason)")
        }
    }
}
