/// TLS for one outgoing connection: the context and the name the server must prove.
public struct TLSConnectSettings: Sendable {
    public var context: TLSContext
    /// Sent as SNI (unless an IP address) and matched against the certificate.
    public var serverName: String

    public init(context: TLSContext, serverName: String) {
        self.context = context
        self.serverName = serverName
    }
}
