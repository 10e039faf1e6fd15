import Dispatch
import IMThreads
import IMTransport
import Synchronization

/// The IM server running in this process: its store, event loop, MQTT listener and HTTP API.
///
/// `imserver` runs one; imsh embeds one for profiles whose server is `"embedded"`; tests start
/// one on port 0 and read the ports back. All of the broker's state lives on one event loop.
public final class EmbeddedServer: Sendable {
    /// Where and how to run.
    public struct Options: Sendable {
        public var configuration: ServerConfiguration
        public var mqttHost: String
        /// 0 picks a free port; read it back from `mqttAddress`.
        public var mqttPort: UInt16
        public var apiHost: String
        /// 0 picks a free port; read it back from `apiAddress`.
        public var apiPort: UInt16
        /// The data directory (created if missing); the store is `DIR/server.sqlite` unless
        /// `storeURL` names a PostgreSQL database.
        public var dataDirectory: String
        /// A `postgres://` URL (or libpq key=value string): keep everything there, shared with
        /// the other nodes naming the same database, instead of in the data directory.
        public var storeURL: String?
        /// This node's name among several on one PostgreSQL store (default: host name and a random suffix).
        public var nodeName: String?
        /// Connections to PostgreSQL this node may open at most (its pool).
        public var storeConnections = 4
        public var clock: ServerClock
        /// The certificate of the TLS listeners; needed when either TLS port is set.
        public var tls: TLSServerIdentity?
        public var mqttTLSHost = "127.0.0.1"
        /// MQTT over TLS on this port (0 picks one), or nil for no such listener.
        public var mqttTLSPort: UInt16?
        public var apiTLSHost = "127.0.0.1"
        /// The HTTPS server API on this port (0 picks one), or nil for none.
        public var apiTLSPort: UInt16?
        public var webSocketHost = "127.0.0.1"
        /// MQTT over WebSocket (path `/mqtt`) on this port (0 picks one), or nil for none.
        public var webSocketPort: UInt16?
        public var secureWebSocketHost = "127.0.0.1"
        /// MQTT over WebSocket over TLS on this port (0 picks one), or nil for none; needs `tls`.
        public var secureWebSocketPort: UInt16?
        public var metricsHost = "127.0.0.1"
        /// Plain HTTP `/metrics`, `/healthz` and `/readyz` on this port (0 picks one), or nil for none.
        public var metricsPort: UInt16?
        /// Where clients reach this node, given to the clients of another node of the same store
        /// that stops (DISCONNECT 0x9C); nil: the MQTT listener's address, unless it is a wildcard.
        public var serverReference: String?
        /// Where the other nodes of the same store link to this one (`NodeLinks`): a numeric
        /// address they reach, as written in the node's row; port 0 picks a free one.
        public var linkHost = "127.0.0.1"
        public var linkPort: UInt16 = 0
        /// How long `stop()` waits for clients to close and for the stores and acknowledgements
        /// under way to be committed before it closes the store.
        public var drainTimeout: Duration = .seconds(10)
        /// Told, from the server's loop, of trouble an operator should hear about (such as
        /// running out of descriptors); one line of text each.
        public var warning: @Sendable (String) -> Void = { _ in }

        public init(
            configuration: ServerConfiguration = ServerConfiguration(), mqttHost: String = "127.0.0.1", mqttPort: UInt16 = 0,
            apiHost: String = "127.0.0.1", apiPort: UInt16 = 0, dataDirectory: String, clock: ServerClock = .system
        ) {
            self.configuration = configuration
            self.mqttHost = mqttHost
            self.mqttPort = mqttPort
            self.apiHost = apiHost
            self.apiPort = apiPort
            self.dataDirectory = dataDirectory
            self.clock = clock
        }
    }

    /// Where MQTT clients connect (a new port after `moveListener()`).
    public var mqttAddress: SocketAddress { listener.withLock { $0.localAddress } }
    /// Where the HTTP server API listens.
    public var apiAddress: SocketAddress { api.localAddress }
    /// Where MQTT clients connect over TLS, if they can.
    public var mqttTLSAddress: SocketAddress? { tlsListener?.localAddress }
    /// Where the HTTPS server API listens, if it does.
    public var apiTLSAddress: SocketAddress? { apiTLS?.localAddress }
    /// Where MQTT clients connect over WebSocket (`ws://`), if they can.
    public var webSocketAddress: SocketAddress? { webSocketListener?.localAddress }
    /// Where the other nodes of the store link to this one; nil without a store of several nodes.
    public let linkAddress: SocketAddress?
    /// Where MQTT clients connect over WebSocket over TLS (`wss://`), if they can.
    public var secureWebSocketAddress: SocketAddress? { secureWebSocketListener?.localAddress }
    /// Where `/metrics`, `/healthz` and `/readyz` are served, if they are.
    public var metricsAddress: SocketAddress? { metrics?.localAddress }
    /// The certificate the TLS listeners present; `reload()` it to pick up new files.
    public let tls: TLSServerIdentity?
    /// What the HTTP API (or an in-process caller such as imsh) asks of the server.
    public let backend: any ServerAPIBackend
    let group: EventLoopGroup
    let loop: EventLoop
    /// The plain MQTT listener; `moveListener()` replaces it.
    let listener: Mutex<Listener>
    /// Opens a plain MQTT listener on the MQTT host and this port, for `moveListener()`.
    let openMQTTListener: @Sendable (UInt16) throws -> Listener
    let api: APIServer
    let tlsListener: Listener?
    let apiTLS: APIServer?
    let webSocketListener: Listener?
    let secureWebSocketListener: Listener?
    let metrics: APIServer?
    /// Whether logins are taken (`/readyz`): not from `beginDraining` on.
    let readiness: ServerReadiness
    let drainTimeout: Duration
    let clock: ServerClock
    let core: LoopBound<BrokerCore>
    let store: any ServerStore
    let cluster: PostgresCluster?

    private init(backend: any ServerAPIBackend, group: EventLoopGroup, listeners: Listeners, tls: TLSServerIdentity?,
                 core: LoopBound<BrokerCore>, store: any ServerStore, cluster: PostgresCluster?, linkAddress: SocketAddress?,
                 readiness: ServerReadiness,
                 drainTimeout: Duration, clock: ServerClock, openMQTTListener: @escaping @Sendable (UInt16) throws -> Listener) {
        self.backend = backend
        self.group = group
        self.loop = group.loops[0]
        self.listener = Mutex(listeners.mqtt)
        self.openMQTTListener = openMQTTListener
        self.api = listeners.api
        self.tlsListener = listeners.mqttTLS
        self.apiTLS = listeners.apiTLS
        self.webSocketListener = listeners.webSocket
        self.secureWebSocketListener = listeners.secureWebSocket
        self.metrics = listeners.metrics
        self.readiness = readiness
        self.drainTimeout = drainTimeout
        self.clock = clock
        self.tls = tls
        self.core = core
        self.store = store
        self.cluster = cluster
        self.linkAddress = linkAddress
    }

    /// Every listening socket of the server.
    struct Listeners {
        var mqtt: Listener
        var api: APIServer
        var mqttTLS: Listener?
        var apiTLS: APIServer?
        var webSocket: Listener?
        var secureWebSocket: Listener?
        var metrics: APIServer?
    }

    /// Opens the store and starts listening.
    public static func start(_ options: Options) async throws -> EmbeddedServer {
        let (store, cluster) = try await openStore(options)
        do {
            let apps = try await store.effectiveApps(configured: options.configuration.apps)
            let group = try EventLoopGroup(threads: 1, name: "imserver")
            let loop = group.loops[0]
            let core: LoopBound<BrokerCore>
            do {
                core = try await makeCore(loop: loop, store: store, cluster: cluster, apps: apps, options: options)
            } catch {
                await BlockingCall.run { group.shutdown() }
                throw error
            }
            let limits = options.configuration.limits
            let highWater = min(256 * 1024, limits.outgoingBufferLimit)
            let connectionOptions = ConnectionOptions(
                maximumFrameSize: limits.maxPacketSize, highWaterMark: highWater, lowWaterMark: highWater / 4,
                outboundLimit: limits.outgoingBufferLimit)
            let backend = ServerBackend(core: core, loop: loop, store: store, cluster: cluster, clock: options.clock)
            let readiness = ServerReadiness()
            let listeners: Listeners, linkAddress: SocketAddress?
            do {
                linkAddress = try await joinCluster(cluster, core: core, group: group, options: options)
                listeners = try await openListeners(
                    options, group: group, core: core, backend: backend, connectionOptions: connectionOptions,
                    metrics: { apis in
                        ServerMetrics(core: core, loop: loop, store: store, cluster: cluster, apiRequests: apis, readiness: readiness,
                                      clock: options.clock)
                    })
            } catch {
                await cluster?.stop()
                loop.execute {
                    core.value.lane.close()
                    core.value.cluster.stopLinks()
                }
                await BlockingCall.run { group.shutdown() }
                throw error
            }
            await advertise(cluster, listener: listeners.mqtt, options: options)
            loop.execute { core.value.startMaintenance() }
            return EmbeddedServer(
                backend: backend, group: group, listeners: listeners, tls: options.tls, core: core, store: store, cluster: cluster,
                linkAddress: linkAddress, readiness: readiness, drainTimeout: options.drainTimeout, clock: options.clock,
                openMQTTListener: { port in
                    try makeMQTTListener(host: options.mqttHost, port: port, tls: nil, webSocket: nil, group: group, core: core,
                                         options: options, connectionOptions: connectionOptions)
                })
        } catch {
            await store.close()
            throw error
        }
    }

    /// Stops gracefully: no new connections, DISCONNECT 0x8B to every client (0x9C with another
    /// live node's address when other nodes of the store advertise one, spread over them), API
    /// requests under way answered, then up to `drainTimeout` for clients to close and the
    /// stores and acknowledgements under way to commit, then the store and the loop.
    /// A second call does nothing.
    public func stop() async {
        await shutDown { core, references in core.beginShutdown(references: references) }
    }

    /// Closes the listeners, runs `begin` on the core with the other live nodes' addresses (once:
    /// a later call does nothing), then
    /// waits for the clients to go and closes the store and the loop.
    func shutDown(_ begin: @escaping @Sendable (BrokerCore, [String]) -> Void) async {
        readiness.drain("stopping")
        listener.withLock { $0.close() }
        tlsListener?.close()
        webSocketListener?.close()
        secureWebSocketListener?.close()
        let core = self.core
        let references = await otherNodeReferences()
        let started = await onLoop { () -> Bool in
            guard !core.value.shuttingDown else { return false }
            begin(core.value, references)
            return true
        }
        guard started == true else { return }
        await api.close()
        await apiTLS?.close()
        await waitOnLoop { core.value.connections.isEmpty && core.value.lane.isIdle }
        // What the lane gathered is committed before the loop ends.
        _ = await onLoop {
            core.value.lane.close()
            core.value.cluster.stopLinks()
        }
        await metrics?.close()
        let group = self.group
        await BlockingCall.run { group.shutdown() }
        await cluster?.stop()
        await store.close()
    }

    /// From now on `/readyz` answers 503 naming `reason` (such as "SIGTERM"); `stop()` does it too.
    public func beginDraining(_ reason: String) {
        readiness.drain(reason)
    }

    /// Makes the broker on its loop, where its message lane opens (SQLite's connection is the loop's).
    private static func makeCore(
        loop: EventLoop, store: any MessageLaneStore, cluster: PostgresCluster?, apps: [AppSettings], options: Options
    ) async throws(ServerStoreError) -> LoopBound<BrokerCore> {
        let made = await withCheckedContinuation { (continuation: CheckedContinuation<Result<LoopBound<BrokerCore>, ServerStoreError>, Never>) in
            let queued = loop.execute {
                continuation.resume(returning: Result { () throws(ServerStoreError) -> LoopBound<BrokerCore> in
                    let core = BrokerCore(loop: loop, store: store, lane: try store.makeMessageLane(on: loop), cluster: cluster,
                                          configuration: options.configuration, apps: apps, clock: options.clock)
                    return LoopBound(confined: core, loop: loop)
                })
            }
            if !queued {
                continuation.resume(returning: .failure(.failed(
                    operation: "start the broker", path: store.location, reason: "its event loop has stopped")))
            }
        }
        return try made.get()
    }

    /// The user's devices that disconnected with push turned off (`im-push` `off`) and have
    /// not logged in since, sorted.
    public func pushDisabledDevices(appKey: String, userID: String) async -> [String] {
        let core = self.core
        return await onLoop { core.value.logins.pushDisabledDevices(appKey: appKey, userID: userID) } ?? []
    }

    /// Runs `body` on the loop; nil once the loop has stopped.
    func onLoop<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T? {
        await Self.onLoop(loop, body)
    }

    /// Runs `body` on `loop`; nil once the loop has stopped.
    static func onLoop<T: Sendable>(_ loop: EventLoop, _ body: @escaping @Sendable () -> T) async -> T? {
        await withCheckedContinuation { continuation in
            if !loop.execute({ continuation.resume(returning: body()) }) {
                continuation.resume(returning: nil)
            }
        }
    }
}
