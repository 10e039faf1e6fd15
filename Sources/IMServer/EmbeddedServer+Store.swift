import IMTransport

#if canImport(Glibc)
import Glibc
#endif

extension EmbeddedServer {
    /// The store the options name: PostgreSQL (with this node's part in the cluster) for a
    /// `storeURL`, else SQLite in the data directory.
    static func openStore(_ options: Options) async throws(ServerStoreError) -> (any MessageLaneStore, PostgresCluster?) {
        let location = StoreLocation(directory: options.dataDirectory, storeURL: options.storeURL)
        let store = try await location.openForBroker(nodeName: options.nodeName ?? defaultNodeName(), connections: options.storeConnections)
        guard let shared = store as? PostgresServerStore, case .postgres(let url) = location else { return (store, nil) }
        return (store, PostgresCluster(store: shared, conninfo: url))
    }

    /// Blocks or unblocks the app `appKey`, as `imserver app block` does, and returns once the
    /// broker has read it back: from then on the app's
    /// logins are refused with 0x87 `app-blocked`, or let in again.
    public func setAppBlocked(_ appKey: String, _ blocked: Bool) async throws(ServerStoreError) {
        try await store.setAppBlocked(appKey, blocked)
        let core = self.core
        loop.execute { core.value.reloadAppsIfChanged(always: true) }
        let deadline = ContinuousClock.now + .seconds(5)
        while await backend.app(forKey: appKey)?.blocked != blocked, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The host name and 6 random hex digits: unique per run, readable in `node` and logs.
    public static func defaultNodeName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        let named = gethostname(&buffer, 255) == 0
        let host = named ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) : "imserver"
        return host + "-" + String(UInt32.random(in: 0..<0x100_0000), radix: 16)
    }

    /// Starts listening to the other nodes (their notices run on the broker's loop) and opens
    /// the links' listener, whose address the node's row gives them; returns that address.
    static func joinCluster(
        _ cluster: PostgresCluster?, core: LoopBound<BrokerCore>, group: EventLoopGroup, options: Options
    ) async throws -> SocketAddress? {
        guard let cluster else { return nil }
        let warning = options.warning, loop = group.loops[0]
        let listener = try Listener(host: options.linkHost, port: options.linkPort, group: group,
                                    options: NodeLinks.connectionOptions) { connection in
            guard let links = core.value.cluster.links else { return connection.close(.immediate) }
            links.accept(connection)
        }
        let secret: [UInt8]
        do {
            secret = try await cluster.linkSecret()
        } catch {
            listener.close()
            throw error
        }
        loop.execute { core.value.cluster.startLinks(listener, secret: secret, warning: warning) }
        try await cluster.start(
            now: options.clock.wallMilliseconds(), link: listener.localAddress.description,
            onConnected: { loop.execute { core.value.cluster.catchUp() } },
            onNotice: { notice in loop.execute { core.value.cluster.apply(notice) } },
            onUnreadable: { error in warning("\(error) (from a newer node?); skipped") })
        await linkBeforeListening(cluster, core: core, loop: loop, options: options)
        return listener.localAddress
    }

    /// Links to the live nodes before the first client comes, for up to `firstLinksWait`: a
    /// node young enough that a peer may not have it in its view catches up at its first
    /// links (`NodeLinks`), which costs nothing with no device online yet. A node that cannot
    /// link in time listens anyway and catches up later.
    private static func linkBeforeListening(
        _ cluster: PostgresCluster, core: LoopBound<BrokerCore>, loop: EventLoop, options: Options
    ) async {
        let started = ContinuousClock.now
        guard let beat = try? await cluster.heartbeat(now: options.clock.wallMilliseconds()) else { return }
        _ = await onLoop(loop) { core.value.cluster.links?.update(peers: beat.peers, readAt: started) }
        while ContinuousClock.now - started < NodeLinks.firstLinksWait,
              await onLoop(loop, { core.value.cluster.links?.allDialedAreLinked ?? true }) == false {
            try? await Task.sleep(for: .milliseconds(20))
        }
    }
}
