import Synchronization

/// Whether the server takes logins: false from the moment it starts draining (SIGTERM) on.
/// Safe from any thread; `/readyz` reads it.
final class ServerReadiness: Sendable {
    private let drainingSince = Mutex<String?>(nil)

    /// Marks the server as draining, for `reason` (such as "SIGTERM"); the first reason stays.
    func drain(_ reason: String) {
        drainingSince.withLock { $0 = $0 ?? reason }
    }

    /// Why the server is draining, or nil while it serves.
    var drainingReason: String? { drainingSince.withLock { $0 } }
}
