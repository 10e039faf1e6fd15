import CSSL
#if canImport(Glibc)
import Glibc
#endif

/// TLS over a non-blocking TCP socket, as a `ByteStream` the framing layer reads and writes.
///
/// OpenSSL drives the socket itself. When it needs the other direction (a read that must
/// write during a handshake, a write waiting for a handshake message), the call answers
/// `.wouldBlock` and the connection retries on the next readiness event; `readWaitsForWritable`
/// asks for a retry of reads on a writable event as well. A server stream handshakes lazily
/// inside its first reads; a client stream is handshaken by the connect attempt before use.
final class TLSStream: ByteStream {
    let socket: SocketStream
    let ssl: OpaquePointer
    /// Kept alive for `ssl`, which refers to it.
    let context: TLSContext
    private(set) var readWaitsForWritable = false
    /// The last call that could not go on waits for writability (else for readability).
    private(set) var waitsForWritable = false
    private var isClosed = false

    var fileDescriptor: Int32 { socket.fileDescriptor }

    var isServerSide: Bool { context.isServer }

    /// A server stream handshakes inside its first reads; until then it cannot write.
    var isEstablished: Bool { SSL_is_init_finished(ssl) == 1 }

    init(socket: SocketStream, context: TLSContext) throws(TLSFailure) {
        guard let ssl = SSL_new(context.pointer) else {
            throw TLSFailure(.configuration, "cannot create a TLS session: \(TLSContext.errorQueueText())")
        }
        self.socket = socket
        self.ssl = ssl
        self.context = context
        SSL_set_fd(ssl, socket.fileDescriptor)
        if context.isServer { SSL_set_accept_state(ssl) } else { SSL_set_connect_state(ssl) }
    }

    deinit {
        close(abortively: false)
        SSL_free(ssl)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(TransportError) -> IOResult {
        ERR_clear_error()
        var count = 0
        let result = SSL_read_ex(ssl, buffer.baseAddress, buffer.count, &count)
        readWaitsForWritable = false
        if result == 1 { return .processed(count) }
        let code = SSL_get_error(ssl, result)
        if code == SSL_ERROR_WANT_WRITE { readWaitsForWritable = true }
        return try outcome(of: code, call: "recv")
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(TransportError) -> IOResult {
        guard !bytes.isEmpty else { return .processed(0) }
        ERR_clear_error()
        var count = 0
        let result = SSL_write_ex(ssl, bytes.baseAddress, bytes.count, &count)
        if result == 1 { return .processed(count) }
        switch try outcome(of: SSL_get_error(ssl, result), call: "send") {
        case .endOfStream: throw .closedByPeer
        case let other: return other
        }
    }

    /// Advances the handshake; true once it is complete.
    func handshake() throws(TransportError) -> Bool {
        ERR_clear_error()
        let result = SSL_do_handshake(ssl)
        if result == 1 { return true }
        switch try outcome(of: SSL_get_error(ssl, result), call: "handshake") {
        case .endOfStream: throw .closedByPeer
        default: return false
        }
    }

    /// What the negotiated link runs.
    var sessionInfo: TLSSessionInfo {
        var alpnData: UnsafePointer<UInt8>?
        var alpnLength: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &alpnData, &alpnLength)
        let alpn = alpnData.map { String(decoding: UnsafeBufferPointer(start: $0, count: Int(alpnLength)), as: UTF8.self) }
        let cipher = SSL_get_current_cipher(ssl).flatMap { SSL_CIPHER_get_name($0) }.map { String(cString: $0) }
        return TLSSessionInfo(
            version: String(cString: SSL_get_version(ssl)), cipher: cipher ?? "none", alpn: alpn)
    }

    private func outcome(of code: Int32, call: String) throws(TransportError) -> IOResult {
        waitsForWritable = code == SSL_ERROR_WANT_WRITE
        switch code {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
            return .wouldBlock
        case SSL_ERROR_ZERO_RETURN:
            return .endOfStream
        case SSL_ERROR_SYSCALL:
            let error = errno
            ERR_clear_error()
            // OpenSSL 3 reports a peer's FIN without close_notify here with errno 0.
            if error == 0 { return .endOfStream }
            if !context.isServer, let alert = alertBehindSocketError() { throw .tls(alert) }
            throw TransportError.ioFailure(call, code: error)
        default:
            let failure = Self.failure(TLSContext.errorQueueText())
            if failure.kind == .peerNotTLS && context.isServer { sendProtocolVersionAlert() }
            throw .tls(failure)
        }
    }

    /// The alert that may wait in the receive queue behind a socket error: a server that
    /// refuses a TLS 1.3 client after the client's side of the handshake is done sends its
    /// alert and closes, and a CONNECT written meanwhile draws a reset. The alert says what
    /// to fix; the socket error does not.
    func alertBehindSocketError() -> TLSFailure? {
        ERR_clear_error()
        var byte: UInt8 = 0
        var count = 0
        let result = SSL_read_ex(ssl, &byte, 1, &count)
        guard result != 1, SSL_get_error(ssl, result) == SSL_ERROR_SSL else {
            ERR_clear_error()
            return nil
        }
        let failure = Self.failure(TLSContext.errorQueueText())
        return failure.kind == .refusedByPeer ? failure : nil
    }

    /// Tells a plaintext client, in the one language both ends know (a TLS alert record:
    /// fatal, protocol_version), that this port speaks TLS. OpenSSL itself sends nothing
    /// when the first bytes are not TLS, which would leave the client guessing.
    private func sendProtocolVersionAlert() {
        let alert: [UInt8] = [0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x46]
        _ = alert.withUnsafeBytes { send(socket.fileDescriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
    }

    /// Names the usual cause of the library's terse reasons.
    static func failure(_ reasons: String) -> TLSFailure {
        if reasons.contains("wrong version number") || reasons.contains("packet length too long")
            || reasons.contains("http request") {
            return TLSFailure(.peerNotTLS, "the peer does not speak TLS (\(reasons)): "
                + "if that port speaks plain MQTT, use mqtt://")
        }
        if reasons.contains("unsupported protocol") || reasons.contains("protocol version") {
            return TLSFailure(.refusedByPeer, "no TLS version in common (\(reasons)); TLS 1.2 or 1.3 is required")
        }
        if let refusal = refusal(reasons) { return refusal }
        return TLSFailure(.handshake, "TLS handshake failed: \(reasons)")
    }

    /// The alerts a peer ends a handshake with that retrying cannot answer, worded for the
    /// client that got them (a server only logs what its clients send).
    private static func refusal(_ reasons: String) -> TLSFailure? {
        if reasons.contains("alert certificate required") {
            return TLSFailure(.refusedByPeer, "the server requires a client certificate (TLS alert: certificate required): "
                + "give one with tls.cert and tls.key in the profile")
        }
        if reasons.contains("alert unknown ca") {
            return TLSFailure(.refusedByPeer, "the server does not trust the issuer of the client certificate "
                + "(TLS alert: unknown CA): tls.cert must be issued by a CA the server accepts")
        }
        let refusedCertificate = ["alert bad certificate", "alert certificate unknown", "alert unsupported certificate",
                                  "alert certificate expired", "alert certificate revoked", "alert access denied"]
        if let alert = refusedCertificate.first(where: reasons.contains) {
            return TLSFailure(.refusedByPeer, "the server refused the client certificate (TLS alert: \(alert.dropFirst(6))): "
                + "check tls.cert and tls.key in the profile")
        }
        if reasons.contains("alert handshake failure") || reasons.contains("alert insufficient security")
            || reasons.contains("no shared cipher") || reasons.contains("no protocols available") {
            return TLSFailure(.refusedByPeer, "the server found no TLS version or cipher in common (\(reasons))")
        }
        return nil
    }

    func shutdownOutput() {
        guard !isClosed else { return }
        // close_notify first, best effort: a full send buffer just leaves it out. Not during
        // a handshake, whose peer has nothing to close yet.
        if SSL_is_init_finished(ssl) == 1 {
            ERR_clear_error()
            _ = SSL_shutdown(ssl)
            ERR_clear_error()
        }
        socket.shutdownOutput()
    }

    func close(abortively: Bool) {
        guard !isClosed else { return }
        isClosed = true
        socket.close(abortively: abortively)
    }
}
