import Dispatch
import IMTransport

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
        /// The data directory (created if missing); the store is `DIR/server.sqlite`.
        public var dataDirectory: String
        public var clock: ServerClock
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

    /// Where MQTT clients connect.
    public let mqttAddress: SocketAddress
    /// Where the HTTP server API listens.
    public var apiAddress: SocketAddress { api.localAddress }
    /// What the HTTP API (or an in-process caller such as imsh) asks of the server.
    public let backend: any ServerAPIBackend
    let group: EventLoopGroup
    let loop: EventLoop
    let listener: Listener
    let api: APIServer
    let core: LoopBound<BrokerCore>
    let store: ServerStore

    private init(mqttAddress: SocketAddress, backend: any ServerAPIBackend, group: EventLoopGroup, listener: Listener,
                 api: APIServer, core: LoopBound<BrokerCore>, store: ServerStore) {
        self.mqttAddress = mqttAddress
        self.backend = backend
        self.group = group
        self.loop = group.loops[0]
        self.listener = listener
        self.api = api
        self.core = core
        self.store = store
    }

    /// Opens the store and starts listening.
    public static func start(_ options: Options) async throws -> EmbeddedServer {
        let store = try await ServerStore.open(directory: options.dataDirectory)
        do {
            let apps = try await store.effectiveApps(configured: options.configuration.apps)
            let group = try EventLoopGroup(threads: 1, name: "imserver")
            let loop = group.loops[0]
            let core = LoopBound(
                BrokerCore(loop: loop, store: store, configuration: options.configuration, apps: apps, clock: options.clock),
                loop: loop)
            let limits = options.configuration.limits
            let highWater = min(256 * 1024, limits.outgoingBufferLimit)
            let connectionOptions = ConnectionOptions(
                maximumFrameSize: limits.maxPacketSize, highWaterMark: highWater, lowWaterMark: highWater / 4,
                outboundLimit: limits.outgoingBufferLimit)
            let backend = ServerBackend(core: core, loop: loop, store: store, clock: options.clock)
            let listener: Listener
            let api: APIServer
            do {
                let warning = options.warning
                listener = try Listener(
                    host: options.mqttHost, port: options.mqttPort, backlog: Listener.longestBacklog, group: group,
                    options: connectionOptions,
                    onAcceptFailure: { error in
                        warning("cannot accept MQTT connections (\(error.reason)): new clients wait until some close; "
                            + "if the open-file limit is the cause, raise it (ulimit -n, LimitNOFILE)")
                    }
                ) {
                    core.value.accept($0)
                }
                do {
                    api = try APIServer(host: options.apiHost, port: options.apiPort, group: group, backend: backend,
                                        limits: limits, options: APIServerOptions(clock: options.clock))
                } catch {
                    listener.close()
                    throw error
                }
            } catch {
                group.shutdown()
                throw error
            }
            loop.execute { core.value.startMaintenance() }
            return EmbeddedServer(mqttAddress: listener.localAddress, backend: backend, group: group,
                                  listener: listener, api: api, core: core, store: store)
        } catch {
            await store.close()
            throw error
        }
    }

    /// Stops gracefully: no new connections, DISCONNECT 0x8B to every client, API requests under
    /// way answered, a short wait for clients to close, then the store and the loop.
    /// A second call does nothing.
    public func stop() async {
        listener.close()
        let core = self.core
        let started = await onLoop { () -> Bool in
            guard !core.value.shuttingDown else { return false }
            core.value.beginShutdown()
            return true
        }
        guard started == true else { return }
        await api.close()
        for _ in 0..<100 {
            if await onLoop({ core.value.connections.isEmpty }) != false { break }
            try? await Task.sleep(for: .milliseconds(20))
        }
        let group = self.group
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                group.shutdown()
                continuation.resume()
            }
        }
        await store.close()
    }

    /// Runs `body` on the loop; nil once the loop has stopped.
    private func onLoop<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T? {
        let loop = self.loop
        return await withCheckedContinuation { continuation in
            if !loop.execute({ continuation.resume(returning: body()) }) {
                continuation.resume(returning: nil)
            }
        }
    }
}
