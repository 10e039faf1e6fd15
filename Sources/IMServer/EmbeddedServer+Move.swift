import IMTransport

extension EmbeddedServer {
    /// Moves the plain MQTT listener to a new port on the same host, as a server that moves
    /// does to its clients: the new listener opens, the old one closes, and every client gets
    /// DISCONNECT 0x9C (use another server) naming the new address, once what it sent is
    /// stored and acknowledged. Returns the new address once those clients have gone (at most
    /// `drainTimeout`). imsh's `server move` shows a session following a Server Reference with it.
    public func moveListener() async throws -> SocketAddress {
        let moved = try openMQTTListener(0)
        let old = listener.withLock { current in
            defer { current = moved }
            return current
        }
        old.close()
        let reference = moved.localAddress.description
        let core = self.core
        let sent = await onLoop { core.value.sendAway(to: [reference]) } ?? []
        await waitOnLoop { !sent.contains { core.value.connections[$0] != nil } }
        return moved.localAddress
    }
}
