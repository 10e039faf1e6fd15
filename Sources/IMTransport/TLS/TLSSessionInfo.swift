/// What a negotiated TLS link runs: protocol version, cipher suite and ALPN protocol.
public struct TLSSessionInfo: Sendable, Equatable, CustomStringConvertible {
    /// "TLSv1.3" or "TLSv1.2".
    public var version: String
    /// The OpenSSL name of the cipher suite, such as "TLS_AES_256_GCM_SHA384".
    public var cipher: String
    /// The protocol agreed through ALPN ("mqtt"), or nil when the server chose none.
    public var alpn: String?

    public init(version: String, cipher: String, alpn: String?) {
        self.version = version
        self.cipher = cipher
        self.alpn = alpn
    }

    public var description: String { "\(version) \(cipher)" + (alpn.map { " alpn \($0)" } ?? "") }
}
