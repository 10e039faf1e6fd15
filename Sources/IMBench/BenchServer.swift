import IMProtocol
#if canImport(Glibc)
import Glibc
#endif

/// The IM server a bench runs against: in this process, a separate imserver, a profile's, or a list.
package protocol BenchServer: Actor {
    /// The app every bench session logs in to.
    var appKey: String { get }
    /// Where sessions connect; the same address after a restart.
    var servers: [ServerAddress] { get }
    /// Where the server runs, for reports and for the descriptor budget.
    var placement: ServerPlacement { get }
    /// How tokens for new users are obtained.
    func tokenIssuer() async throws(BenchError) -> TokenIssuer
    /// Takes the server away at once: embedded, a graceful stop (all a process can do to
    /// itself); spawned, SIGKILL.
    func takeDown() async throws(BenchError)
    /// Starts it again on the same MQTT address and data; returns once it listens.
    func bringBack() async throws(BenchError)
    /// Stops it for good (nothing for a server the bench did not start).
    func shutdown() async
}

/// Where the server of a bench runs.
package enum ServerPlacement: Sendable, Equatable {
    /// In this process: its memory and descriptors count in the bench's.
    case inProcess
    /// A separate imserver that the bench started.
    case spawned(pid: pid_t)
    /// A server the bench did not start (a profile's).
    case external
    /// Servers the bench did not start, named with `--server URL,...`.
    case listed

    package var isInProcess: Bool { self == .inProcess }

    package var name: String {
        switch self {
        case .inProcess: return "embedded"
        case .spawned: return "spawn"
        case .external: return "profile"
        case .listed: return "list"
        }
    }
}
