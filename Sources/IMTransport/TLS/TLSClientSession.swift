/// TLS over a connected non-blocking socket that the caller owns and polls itself, for the
/// blocking clients that do not run on an event loop (the engine's token URL).
///
/// Each call either makes progress or says which readiness to wait for; the caller polls the
/// descriptor and calls again. The server is verified as a connect attempt verifies it.
public final class TLSClientSession {
    /// The readiness a call that could not go on waits for.
    public enum Wait: Sendable, Equatable {
        case readable
        case writable
    }

    private let stream: TLSStream
    private let serverName: String
    private var isVerified = false

    /// Starts a client session on `fileDescriptor`, which stays the caller's to close.
    public init(fileDescriptor: Int32, settings: TLSConnectSettings) throws(TLSFailure) {
        stream = try TLSStream(socket: SocketStream(fileDescriptor: fileDescriptor, owned: false), context: settings.context)
        stream.expect(serverName: settings.serverName)
        serverName = settings.serverName
    }

    /// Advances the handshake and, once it is complete, verifies the server; nil when done.
    public func handshake() throws(TransportError) -> Wait? {
        guard !isVerified else { return nil }
        guard try stream.handshake() else { return wait }
        do throws(TLSFailure) {
            try stream.verifyPeer(serverName: serverName)
        } catch {
            throw .tls(error)
        }
        isVerified = true
        return nil
    }

    /// Reads decrypted bytes; `.wouldBlock` means: poll for `wait`, then call again.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(TransportError) -> IOResult {
        try stream.read(into: buffer)
    }

    /// Writes a prefix of `bytes`; `.wouldBlock` means: poll for `wait`, then call again.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(TransportError) -> IOResult {
        try stream.write(bytes)
    }

    /// What the last call that could not go on waits for.
    public var wait: Wait { stream.waitsForWritable ? .writable : .readable }
}
