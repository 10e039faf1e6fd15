/// How a client verifies and authenticates a TLS server: the `tls` object of a profile.
///
/// Verification is on unless `insecure`: the chain must lead to a CA in `caPath` (or in the
/// system trust store when nil), the certificate must name the host (or `serverName`) and be
/// within its dates. Pins narrow this further: with `pinnedSHA256` set, some certificate of
/// the chain must carry one of the pinned public keys, even when `insecure`.
public struct TLSClientConfiguration: Hashable, Sendable {
    /// A PEM file of CA certificates, or a directory of them (hashed names, `c_rehash`).
    public var caPath: String?
    /// The name to send as SNI and to check the certificate against, instead of the host.
    public var serverName: String?
    /// A client certificate (PEM, chain allowed), for servers that require one.
    public var certificatePath: String?
    /// The private key of `certificatePath` (PEM).
    public var keyPath: String?
    /// Skips chain, name and date checks; the caller warns the user.
    public var insecure: Bool
    /// Base64 SHA-256 digests of SubjectPublicKeyInfo (as `openssl pkey -pubout | openssl dgst`).
    public var pinnedSHA256: [String]
    /// ALPN protocols to offer, such as ["mqtt"].
    public var alpn: [String]

    public init(
        caPath: String? = nil, serverName: String? = nil, certificatePath: String? = nil, keyPath: String? = nil,
        insecure: Bool = false, pinnedSHA256: [String] = [], alpn: [String] = []
    ) {
        self.caPath = caPath
        self.serverName = serverName
        self.certificatePath = certificatePath
        self.keyPath = keyPath
        self.insecure = insecure
        self.pinnedSHA256 = pinnedSHA256
        self.alpn = alpn
    }
}
