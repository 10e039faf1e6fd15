/// What a `Connection` was set up with: its options, and for an outgoing one its TLS session.
///
/// One object that every connection a listener accepts shares: a server with thousands of
/// idle connections keeps one copy of these 100-odd bytes, not one per connection.
final class ConnectionSetup: Sendable {
    let options: ConnectionOptions
    let tlsSession: TLSSessionInfo?

    init(options: ConnectionOptions, tlsSession: TLSSessionInfo? = nil) {
        self.options = options
        self.tlsSession = tlsSession
    }

    /// For an outgoing connection over `stream`: the TLS session it negotiated, if any.
    convenience init(options: ConnectionOptions, stream: any ByteStream) {
        let base = (stream as? WebSocketStream)?.inner ?? stream
        self.init(options: options, tlsSession: (base as? TLSStream).flatMap { $0.isServerSide ? nil : $0.sessionInfo })
    }
}
