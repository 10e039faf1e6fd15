import IMTransport

/// Hands one side's bytes, writability and close to its pair, on the proxy's loop.
final class ProxySide: ConnectionHandler {
    private weak var pair: ProxyPair?
    private let isClient: Bool

    init(_ pair: ProxyPair, isClient: Bool) {
        self.pair = pair
        self.isClient = isClient
    }

    func connection(_ connection: Connection, didReceive frame: [UInt8]) {
        pair?.received(frame, fromClient: isClient)
    }

    func connectionDidBecomeWritable(_ connection: Connection) {
        pair?.becameWritable(client: isClient)
    }

    func connection(_ connection: Connection, didCloseWith error: TransportError?) {
        pair?.closed(fromClient: isClient)
    }
}
