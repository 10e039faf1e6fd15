import Dispatch
import Foundation
import IMThreads
import IMTransport
import Synchronization

/// Runs many isolated IM sessions in one process over a few shared event loops.
///
/// Make it, `initialize` it with an environment (app key, servers, data directory), then make
/// one `Session` per account and device. Sessions share the engine's event loops and network
/// monitor and nothing else: each has its own reconnect loop, heartbeat, status history and
/// database. Connecting a session before `initialize`, or after `shutdown`, fails with 33001.
public final class SessionEngine: Sendable {
    private struct State {
        var runtime: EngineRuntime?
        /// An `initialize` is starting its loops: another one at once is refused, not started too.
        var isStarting = false
        /// The monitor's last word was `down`: a session made now starts paused, as the others are.
        var isNetworkDown = false
        var sessions: [ObjectIdentifier: WeakSession] = [:]
        var monitorTask: Task<Void, Never>?
        var ownedMonitor: LinuxNetworkMonitor?
    }

    private final class WeakSession: Sendable {
        weak let session: Session?
        init(_ session: Session) { self.session = session }
    }

    private let state = Mutex(State())
    /// Where every session of this engine publishes its events and snapshots.
    public let hub: SessionEventHub
    /// Its event loops' threads are named this, then `-0`, `-1` and so on (`top -H`, perf, the
    /// message bench's CPU split read them by it).
    public static let eventLoopName = "imsh-engine"
    /// Where callbacks of a session run when the engine was never initialized.
    static let fallbackCallbacks = CallbackExecutor.queue(DispatchQueue(label: "imsh.engine.uninitialized"))

    /// An engine that is not initialized yet.
    ///
    /// - Parameter hub: where its sessions publish; engines that share one hub give their
    ///   front end one ordered stream (the shell runs an engine per profile).
    public init(hub: SessionEventHub = SessionEventHub()) {
        self.hub = hub
    }

    /// An engine initialized with `configuration`.
    public convenience init(_ configuration: EngineConfiguration, hub: SessionEventHub = SessionEventHub()) throws(EngineError) {
        self.init(hub: hub)
        try initialize(configuration)
    }

    /// Starts the event loops and the network monitor.
    ///
    /// - Throws: `invalidParameter` for a bad configuration or a second initialization,
    ///   `unavailable` when the event loops cannot start.
    public func initialize(_ configuration: EngineConfiguration) throws(EngineError) {
        try configuration.validate()
        try state.withLock { state throws(EngineError) in
            guard state.runtime == nil, !state.isStarting else {
                throw .invalidParameter("the engine is already initialized; shut it down first")
            }
            state.isStarting = true
            state.isNetworkDown = false
        }
        let group: EventLoopGroup
        do {
            group = try EventLoopGroup(threads: configuration.eventLoopThreads, name: Self.eventLoopName)
        } catch {
            state.withLock { $0.isStarting = false }
            throw .unavailable("\(error)")
        }
        var owned: LinuxNetworkMonitor?
        let monitor: (any NetworkMonitoring)?
        switch configuration.networkMonitor {
        case .system:
            owned = try? LinuxNetworkMonitor()
            monitor = owned
        case .none:
            monitor = nil
        case .custom(let custom):
            monitor = custom
        }
        let runtime = EngineRuntime(configuration: configuration, group: group)
        let task = monitor.map { monitor in
            let events = monitor.events()
            return Task { [weak self] in
                for await event in events {
                    guard let self else { return }
                    await self.broadcast(event)
                }
            }
        }
        state.withLock { state in
            state.isStarting = false
            state.runtime = runtime
            state.monitorTask = task
            state.ownedMonitor = owned
        }
    }

    /// Whether `initialize` ran and `shutdown` did not.
    public var isInitialized: Bool { state.withLock { $0.runtime != nil } }

    var runtime: EngineRuntime? { state.withLock { $0.runtime } }

    /// A new session for one account on one device; it connects when you call `connect`.
    ///
    /// Parameters are checked by `connect` (33003), as the SDK does.
    public func makeSession(_ parameters: ConnectParameters) -> Session {
        // Under the lock that `broadcast` takes: the session either is among those a network
        // event goes to, or starts from the state that event left.
        return state.withLock { state in
            let session = Session(engine: self, parameters: parameters, networkDown: state.isNetworkDown)
            state.sessions[ObjectIdentifier(session)] = WeakSession(session)
            return session
        }
    }

    /// The sessions made and not yet closed.
    public var sessions: [Session] {
        state.withLock { state in
            state.sessions = state.sessions.filter { $0.value.session != nil }
            return state.sessions.values.compactMap(\.session)
        }
    }

    func forget(_ session: Session) {
        _ = state.withLock { $0.sessions.removeValue(forKey: ObjectIdentifier(session)) }
    }

    /// Closes every session (an active one disconnects: signOut), stops the monitor and the event loops.
    ///
    /// The engine can be initialized again afterwards.
    public func shutdown() async {
        let (runtime, task, monitor) = state.withLock { state in
            defer {
                state.runtime = nil
                state.monitorTask = nil
                state.ownedMonitor = nil
            }
            return (state.runtime, state.monitorTask, state.ownedMonitor)
        }
        task?.cancel()
        monitor?.stop()
        for session in sessions { await session.close() }
        guard let runtime else { return }
        // Joining loop threads blocks: do it on a thread of its own, off the cooperative pool.
        await BlockingCall.run { runtime.group.shutdown() }
    }

    private func broadcast(_ event: NetworkEvent) async {
        let sessions = state.withLock { state in
            state.isNetworkDown = event == .down
            return state.sessions.values.compactMap(\.session)
        }
        for session in sessions {
            await session.networkChanged(event, simulated: false)
        }
    }
}
