import IMProtocol
import IMStore
import IMTransport

/// One account on one device: its connection, reconnect loop, heartbeat, status history and
/// local database.
///
/// An actor, so each session's state is its own: sessions run side by side in one process and
/// a failure of one touches no other. The reconnection policy is `SessionStateMachine`; the
/// session feeds it events (connect calls, connections made and lost, timers on the engine's
/// clock, network changes, background and foreground) and carries out the actions it returns.
/// Sockets live on the engine's shared event loops.
public actor Session {
    /// The parameters the session was made with.
    public nonisolated let parameters: ConnectParameters
    /// This session's key in the engine's event hub.
    public nonisolated let id = SessionID.next()
    nonisolated let engine: SessionEngine

    /// The engine's runtime and the event loop of this session's connections, from the first
    /// connect call that found the engine initialized (one after the engine was initialized
    /// again takes the new runtime).
    var placement: (runtime: EngineRuntime, loop: EventLoop)?
    /// The clock until a connect call brings the engine's.
    let systemClock = SystemEngineClock()

    var machine: SessionStateMachine
    var call: ConnectCall?

    /// The local database, from the connect call that opened it until the session closes.
    var local: OpenDatabase?
    /// The user id the server named in CONNACK (`im-user-id`).
    var serverUserID: String?

    /// The token the attempts log in with, and whether the next one fetches a fresh one first.
    var token = SessionToken.none
    /// Where the server sent us (0x9C/0x9D); tried first until it cannot be reached.
    var preferredServer: ServerAddress?

    /// The connection attempt (dialling, then its link) and the timers the policy started.
    var activity = SessionActivity()
    /// A simulated outage is on (`simulateNetwork(.down)`): the real monitor's events are
    /// ignored until it ends.
    var simulatedNetworkDown = false
    /// The grace of the current stay in the background, for the suspend message.
    var backgroundGrace: Duration = .zero
    /// The broker refused the inbox subscription (SUBACK >= 0x80): asked again on every connection.
    var inboxSubscriptionRefused = false
    /// Counts links the server closed right after login (see `TakeoverSuspicion`).
    var takeover = TakeoverSuspicion()

    /// Said with the next status change (why it happened).
    var statusDetail = ""
    /// Why the last attempt failed, for a timeout that ends the retries to name.
    var lastRetryableFailure = ""
    /// The latest status changes reported (at most `historyLimit`), oldest first.
    ///
    /// Two fields of the actor rather than one value around them: a `StatusHistory` struct
    /// holding the same array and counter made each session 2.2 KiB larger (9,900 sessions,
    /// `imsh bench connect`, 26.3 KiB a session against 24.0 with these; BENCHMARKS.md, issue 39).
    var history: [StatusChange] = []
    /// How many status changes were reported, those `history` no longer keeps too: what a
    /// front end compares to see that it missed some.
    var changeCount = 0
    /// How many changes `history` keeps.
    static let historyLimit = 1000
    /// The SDK-style handlers, each a hub subscription read by a task of its own.
    var handlers: [String: SessionEventSubscription] = [:]

    /// `networkDown`: the engine's monitor last reported the network down.
    init(engine: SessionEngine, parameters: ConnectParameters, networkDown: Bool) {
        self.engine = engine
        self.parameters = parameters
        let schedule = BackoffSchedule(jitter: parameters.jitter)
        machine = SessionStateMachine(
            configuration: .init(schedule: schedule, backgroundGrace: max(.zero, parameters.backgroundGrace)),
            seed: UInt64.random(in: 1...UInt64.max))
        // Made during an outage: the monitor's `down` went to the sessions there were then,
        // and its `up` will come to this one too.
        if networkDown {
            _ = machine.network(.down)
            statusDetail = "network down"
        }
    }

    /// The current status.
    public var status: ConnectionStatus { machine.status }

    /// The session's state (idle, preparing, connecting, waiting, connected, ... closed).
    public var phase: SessionState { machine.phase }

    /// Status changes since the session was made, oldest first (the latest 1,000).
    public var statusHistory: [StatusChange] { history }

    /// The user id: the server's (CONNACK `im-user-id`) once connected, else the local one.
    public var userID: String? { serverUserID ?? local?.userID }

    /// The server of the live connection, if connected.
    public var connectedServer: ServerAddress? {
        if case .connected(let server, _, _) = machine.phase { server } else { nil }
    }

    /// The TLS version and cipher of the live connection; nil when not connected or plaintext.
    public var connectedTLS: TLSSessionInfo? {
        if case .connected(_, _, let tls) = machine.phase { tls } else { nil }
    }

    /// When the server accepted the live connection's login (ms since the epoch), if connected.
    var connectedSince: Int64? {
        if case .connected(_, let since, _) = machine.phase { since } else { nil }
    }

    /// The local database file, once a connect call opened it.
    public var databaseFile: String? { local?.path }

    /// The live connection, once the server accepted the current attempt's login.
    var link: SessionLink? { activity.link }

    /// The engine's runtime, from the first connect call on.
    var runtime: EngineRuntime? { placement?.runtime }

    /// The event loop of this session's connections, from the first connect call on.
    var loop: EventLoop? { placement?.loop }

    /// The engine's clock (virtual in tests) from the first connect call on; the system's before.
    var clock: any EngineClock { placement?.runtime.clock ?? systemClock }

    /// Whether a connection is wanted: preparing, connecting, connected, waiting, paused or suspended.
    var isActive: Bool { machine.phase.isActive }

    /// Closed for good: the session holds nothing and takes no more calls.
    var isClosed: Bool {
        if case .closed = machine.phase { return true }
        return false
    }
}
