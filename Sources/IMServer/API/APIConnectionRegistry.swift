import IMTransport
import Synchronization

/// The API server's open connections, across loops: bounds their number and lets
/// `APIServer.close()` stop them all and wait until they are gone. Safe from any thread.
final class APIConnectionRegistry: Sendable {
    enum Admission {
        case admitted
        /// `capacity` connections are open.
        case full
        /// `perAddress` connections from the same peer address are open.
        case fullForAddress
        /// The server is closing.
        case closing
    }

    private struct Entry {
        let connection: Connection
        let handle: LoopBound<APIConnection>
        let address: String
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        var countByAddress: [String: Int] = [:]
        var closing = false
        var drained: [CheckedContinuation<Void, Never>] = []
    }

    let capacity: Int
    let perAddress: Int
    private let state = Mutex(State())

    init(capacity: Int, perAddress: Int) {
        self.capacity = capacity
        self.perAddress = perAddress
    }

    var count: Int { state.withLock { $0.entries.count } }

    func add(_ connection: Connection, _ handle: LoopBound<APIConnection>) -> Admission {
        state.withLock { state in
            if state.closing { return .closing }
            guard state.entries.count < capacity else { return .full }
            let address = connection.remoteAddress.host
            guard state.countByAddress[address, default: 0] < perAddress else { return .fullForAddress }
            state.countByAddress[address, default: 0] += 1
            state.entries[ObjectIdentifier(connection)] = Entry(connection: connection, handle: handle, address: address)
            return .admitted
        }
    }

    func remove(_ connection: Connection) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            if let entry = state.entries.removeValue(forKey: ObjectIdentifier(connection)) {
                let left = state.countByAddress[entry.address, default: 1] - 1
                state.countByAddress[entry.address] = left > 0 ? left : nil
            }
            guard state.closing, state.entries.isEmpty else { return [] }
            return state.drained.take()
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Refuses further connections and asks each open one to stop after its answer under way.
    func stopAll() {
        let entries = state.withLock { state in
            state.closing = true
            return Array(state.entries.values)
        }
        for entry in entries {
            let handle = entry.handle
            entry.connection.loop.execute { handle.value.stop() }
        }
    }

    /// Resets every connection still open.
    func abortAll() {
        let connections = state.withLock { $0.entries.values.map(\.connection) }
        for connection in connections { connection.close(.abortive) }
    }

    /// Returns once the registry is closing and every connection has closed.
    func waitUntilDrained() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                guard state.closing, state.entries.isEmpty else {
                    state.drained.append(continuation)
                    return false
                }
                return true
            }
            if done { continuation.resume() }
        }
    }
}

extension Array {
    /// Returns the elements and leaves the array empty.
    fileprivate mutating func take() -> [Element] {
        defer { self = [] }
        return self
    }
}
