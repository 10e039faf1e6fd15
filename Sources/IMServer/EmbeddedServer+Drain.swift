import IMTransport

extension EmbeddedServer {
    /// Records where clients reach this node for the other nodes of the store: the option's
    /// reference, else the MQTT listener's address unless it listens on every address (no use
    /// to a client). A failure is a warning: the node serves, and is only never referenced.
    static func advertise(_ cluster: PostgresCluster?, listener: Listener, options: Options) async {
        guard let cluster else { return }
        let address = listener.localAddress
        let wildcard = address.host == "0.0.0.0" || address.host == "::"
        guard let reference = options.serverReference ?? (wildcard ? nil : address.description) else { return }
        do {
            try await cluster.advertise(reference)
        } catch {
            options.warning("cannot advertise \(reference) to the other nodes: \(error); they will not send clients here when they stop")
        }
    }

    /// The Server References of the other live nodes, for the DISCONNECT 0x9C of a stop; none
    /// without a cluster or when the store does not answer (then the clients get 0x8B).
    func otherNodeReferences() async -> [String] {
        guard let cluster else { return [] }
        return (try? await cluster.otherNodeReferences(now: clock.wallMilliseconds())) ?? []
    }

    /// Checks `done` on the loop every 20 ms until it holds, the loop has stopped, or
    /// `drainTimeout` has passed: how a stop and a move wait for their clients to leave.
    func waitOnLoop(until done: @escaping @Sendable () -> Bool) async {
        let deadline = ContinuousClock.now + drainTimeout
        while ContinuousClock.now < deadline {
            if await onLoop(done) != false { return }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }
}
