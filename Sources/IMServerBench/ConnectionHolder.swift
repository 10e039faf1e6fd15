import IMBench
import IMTransport
import Synchronization

/// Keeps connections open until `closeAll`, for as long as a measurement needs them idle.
final class ConnectionHolder: Sendable {
    private let connections = Mutex<[Connection]>([])

    init() {}

    /// How many are held.
    var count: Int { connections.withLock { $0.count } }

    func keep(_ connection: Connection) {
        connections.withLock { $0.append(connection) }
    }

    /// Closes every held connection (abortively: a benchmark's clients just go away).
    func closeAll() {
        let all = connections.withLock { list -> [Connection] in
            defer { list = [] }
            return list
        }
        for connection in all { connection.close(.abortive) }
    }
}
