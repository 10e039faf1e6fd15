import IMEngine
import IMProtocol

/// Drives a `SessionStateMachine` in virtual time: performs its actions, keeps its timers, and
/// answers each connection attempt the way the test says.
struct VirtualSession {
    typealias Machine = SessionStateMachine

    /// What happens to a connection attempt the moment it opens.
    enum Outcome {
        case connect
        case fail(Machine.Failure)
        /// Neither: the attempt hangs until the test says otherwise.
        case hang
    }

    var machine: Machine
    var now: Duration = .zero
    var timers: [Machine.TimerKind: (token: UInt64, at: Duration)] = [:]
    var opens: [(at: Duration, generation: UInt64, isReconnection: Bool)] = []
    var closes: [UInt64] = []
    var statuses: [(status: ConnectionStatus, code: ConnectErrorCode?)] = []
    var completions: [SessionTermination?] = []
    var outcome: (_ generation: UInt64) -> Outcome = { _ in .hang }

    init(_ configuration: Machine.Configuration = .init(), seed: UInt64 = 1) {
        machine = Machine(configuration: configuration, seed: seed)
    }

    /// The server every virtual attempt reaches.
    static let server = ServerAddress(host: "virtual.test")

    /// The virtual clock in milliseconds, as the machine dates retries and connections.
    var milliseconds: Int64 { Int64(now / .milliseconds(1)) }

    var statusNames: [String] { statuses.map(\.status.name) }
    var openTimes: [Duration] { opens.map(\.at) }

    mutating func connect(timeout: Duration? = nil) throws {
        perform(try machine.connect(timeout: timeout))
    }

    mutating func perform(_ actions: [Machine.Action]) {
        for action in actions {
            switch action {
            case let .status(status, code):
                statuses.append((status, code))
            case let .open(generation, isReconnection):
                opens.append((now, generation, isReconnection))
                switch outcome(generation) {
                case .connect: perform(machine.connected(generation: generation, server: Self.server, since: milliseconds))
                case .fail(let failure): perform(machine.failed(generation: generation, failure, at: milliseconds))
                case .hang: break
                }
            case let .close(generation):
                closes.append(generation)
            case let .startTimer(kind, token, delay):
                timers[kind] = (token, now + delay)
            case let .cancelTimer(kind):
                timers[kind] = nil
            case let .complete(failure):
                completions.append(failure)
            }
        }
    }

    /// Moves the clock forward, firing due timers in time order.
    mutating func advance(by duration: Duration) {
        let end = now + duration
        while let (kind, timer) = timers.filter({ $0.value.at <= end }).min(by: { $0.value.at < $1.value.at }) {
            now = timer.at
            timers[kind] = nil
            perform(machine.timerFired(kind, token: timer.token))
        }
        now = end
    }

    mutating func send(_ body: (inout Machine) -> [Machine.Action]) {
        perform(body(&machine))
    }
}
