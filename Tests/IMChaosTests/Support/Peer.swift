import IMTransport
import Synchronization
import TestSupport

/// One end of a TCP connection in a test: writes bytes; a task of its own collects what arrives,
/// which the test reads within time limits.
final class Peer: Sendable {
    struct Received {
        var bytes: [UInt8] = []
        /// When each byte count was reached, to tell when bytes arrived.
        var arrivals: [(count: Int, at: ContinuousClock.Instant)] = []
        /// How the stream ended, once it has: nil inside after a local close, else the error.
        var ending: TransportError??
    }

    /// Holds what arrived, shared with the reading task.
    final class Inbox: Sendable {
        let state = Mutex(Received())

        func withLock<T: Sendable>(_ body: (inout Received) -> T) -> T { state.withLock { body(&$0) } }
    }

    let connection: Connection
    private let received = Inbox()

    init(_ connection: Connection) {
        self.connection = connection
        let frames = connection.frames()
        let received = self.received
        Task {
            do {
                for try await chunk in frames {
                    received.withLock {
                        $0.bytes += chunk
                        $0.arrivals.append(($0.bytes.count, .now))
                    }
                }
                received.withLock { $0.ending = .some(nil) }
            } catch {
                received.withLock { $0.ending = .some((error as? TransportError) ?? .cancelled) }
            }
        }
    }

    func send(_ bytes: [UInt8]) async throws {
        try await connection.write(bytes)
    }

    /// What has arrived so far, and whether and how the stream ended.
    var snapshot: Received { received.withLock { $0 } }

    /// The first `count` bytes received, once they have arrived or the stream has ended
    /// (then fewer); fails the test past `limit`.
    func read(_ count: Int, within limit: Duration = .seconds(5)) async throws -> [UInt8] {
        let received = self.received
        return try await withTimeout(limit) {
            while true {
                let state = received.withLock { $0 }
                if state.bytes.count >= count || state.ending != nil { return Array(state.bytes.prefix(count)) }
                try await Task.sleep(for: .milliseconds(5))
            }
        }
    }

    /// Everything received once the stream has ended, and how it ended (nil: closed locally).
    func readToEnd(within limit: Duration = .seconds(5)) async throws -> (bytes: [UInt8], ending: TransportError?) {
        let received = self.received
        return try await withTimeout(limit) {
            while true {
                let state = received.withLock { $0 }
                if let ending = state.ending { return (state.bytes, ending) }
                try await Task.sleep(for: .milliseconds(5))
            }
        }
    }

    /// Whether nothing more arrives, and the stream stays open, for `period`.
    func staysSilent(for period: Duration) async -> Bool {
        let before = snapshot.bytes.count
        try? await Task.sleep(for: period)
        let after = snapshot
        return after.bytes.count == before && after.ending == nil
    }

    /// When the first `count` bytes had all arrived, if they have.
    func arrival(of count: Int) -> ContinuousClock.Instant? {
        received.withLock { $0.arrivals.first { $0.count >= count }?.at }
    }

    func close(_ mode: CloseMode = .graceful) { connection.close(mode) }
}
