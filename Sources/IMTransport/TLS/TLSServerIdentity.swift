import Synchronization

/// The certificate a TLS listener presents, replaceable while it runs (SIGHUP).
///
/// Each accepted connection takes the context current at that moment and keeps it, so a
/// reload changes what new clients see without touching live connections.
public final class TLSServerIdentity: Sendable {
    public let certificatePath: String
    public let keyPath: String
    public let clientCAPath: String?
    private let current: Mutex<TLSContext>

    /// Loads the files now; throws what is wrong with them.
    public init(certificate: String, key: String, clientCA: String? = nil) throws(TLSFailure) {
        certificatePath = certificate
        keyPath = key
        clientCAPath = clientCA
        current = Mutex(try TLSContext.server(certificate: certificate, key: key, clientCA: clientCA))
    }

    /// The context for a connection accepted now.
    public var context: TLSContext { current.withLock { $0 } }

    /// Reads the certificate and key files again; on failure the old ones stay in use.
    public func reload() throws(TLSFailure) {
        let fresh = try TLSContext.server(certificate: certificatePath, key: keyPath, clientCA: clientCAPath)
        current.withLock { $0 = fresh }
    }
}
