/// Why TLS could not be set up or broke down, worded so that a person knows what to fix.
///
/// `isPermanent` separates what retrying cannot fix (the certificates, the files, a pin, a
/// peer that does not speak TLS) from a handshake the network cut, which is retried like
/// any other network failure.
public struct TLSFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// What kind of trouble, which decides whether to retry.
    public enum Kind: Sendable, Equatable {
        /// A CA, certificate or key file is missing, unreadable, malformed, or a key does not match.
        case configuration
        /// The peer's certificate failed verification (chain, name or dates).
        case verification
        /// The chain is valid but no certificate in it carries a pinned public key.
        case pinMismatch
        /// The peer answered with bytes that are not TLS (a plaintext port).
        case peerNotTLS
        /// The peer ended the handshake with an alert that only other files or settings can
        /// answer: a client certificate required or refused, no protocol or cipher in common.
        case refusedByPeer
        /// The handshake failed otherwise (cut, reset, no common protocol version).
        case handshake
    }

    public var kind: Kind
    public var description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }

    /// Whether retrying cannot help.
    public var isPermanent: Bool { kind != .handshake }
}
