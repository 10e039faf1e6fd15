/// The reconnection policy of one session as a value: events in, actions out (contract section 4).
///
/// It owns no clock, socket or task. The session actor feeds it events (a connect call, a
/// connection made or lost, a timer, the network, background and foreground) and performs the
/// actions it returns. Each connection attempt carries a generation number and each timer a
/// token, so an event about an older attempt or a cancelled timer changes nothing. Its phase
/// is the session's `SessionState`: the one place where the state and its data live.
public struct SessionStateMachine: Sendable {
    public struct Configuration: Sendable, Equatable {
        public var schedule: BackoffSchedule
        /// Time in the background before the session disconnects with status suspend.
        public var backgroundGrace: Duration
        /// Time a connection must stay up before the backoff sequence starts over. Without it,
        /// two devices taking one session over from each other (brokers that close the loser
        /// without a DISCONNECT) would evict each other in a tight loop.
        public var stableAfter: Duration

        public init(schedule: BackoffSchedule = BackoffSchedule(), backgroundGrace: Duration = .seconds(120),
                    stableAfter: Duration = .seconds(30)) {
            self.schedule = schedule
            self.backgroundGrace = backgroundGrace
            self.stableAfter = stableAfter
        }
    }

    /// The machine's phase is the session's state, with the data of each state.
    public typealias Phase = SessionState

    public enum TimerKind: Sendable, Hashable {
        case retry, deadline, backgroundGrace, stable
    }

    public enum NetworkChange: Sendable, Equatable {
        case down, up, changed
    }

    /// How an attempt or a live connection ended.
    public enum Failure: Sendable, Equatable {
        /// Try again on the backoff schedule (drops, refusals that may pass, keep-alive loss).
        case retryable(String)
        /// Stop: report this and make no further attempt.
        case terminal(SessionTermination)
        /// The server sent the session to another (DISCONNECT 0x9C or 0x9D with a Server
        /// Reference): connect there at once, unless the last connection was such a move that
        /// did not last (servers sending clients back and forth), which waits on the schedule.
        case moved(String)
    }

    public enum Action: Sendable, Equatable {
        /// Report a status change.
        case status(ConnectionStatus, ConnectErrorCode?)
        /// Open connection number `generation`; `isReconnection` sets `im-reconnect`.
        case open(generation: UInt64, isReconnection: Bool)
        /// Close connection number `generation` if it is still open.
        case close(generation: UInt64)
        /// Call `timerFired(kind, token:)` after `delay`, replacing any timer of that kind.
        case startTimer(TimerKind, token: UInt64, delay: Duration)
        case cancelTimer(TimerKind)
        /// Finish the pending connect call, once: `nil` for success, else the termination that ended it.
        case complete(failure: SessionTermination?)
    }

    /// Why a connect call is refused at once.
    public enum ConnectRefusal: Error, Sendable, Equatable {
        case alreadyActive(Phase)
    }

    public let configuration: Configuration
    public internal(set) var phase: SessionState = .idle
    public internal(set) var status: ConnectionStatus = .unconnected
    /// The generation of the newest connection attempt.
    public internal(set) var generation: UInt64 = 0
    /// How many retries have been scheduled since the sequence last started over.
    public internal(set) var attempt = 0
    public internal(set) var networkAvailable = true
    public internal(set) var inBackground = false
    /// A connect call's preparation (token, local database) is running. It can outlive
    /// `.preparing`: a disconnect ends the call at once, not the preparation, and until the
    /// preparation ends another `prepare` is refused, since two would race for the database.
    public internal(set) var isPreparing = false
    var completionPending = false
    var attemptsSinceConnectCall = 0
    /// A move went straight to its server since the last connect call or stable connection.
    var movedAtOnce = false
    var nextToken: UInt64 = 0
    var timerTokens: [TimerKind: UInt64] = [:]
    var random: SplitMix64

    public init(configuration: Configuration = Configuration(), seed: UInt64 = 0x5EED) {
        self.configuration = configuration
        self.random = SplitMix64(seed: seed)
    }
}
