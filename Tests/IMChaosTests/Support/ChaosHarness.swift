import Dispatch
import IMChaos
import IMThreads
import IMTransport
import Synchronization
import TestSupport

/// A target server, a fault proxy in front of it, and the events the proxy reported; all on
/// 127.0.0.1 with ports the kernel picked. `close()` at the end stops everything.
final class ChaosHarness: Sendable {
    let group: EventLoopGroup
    let target: Listener
    let proxy: FaultProxy
    let events: EventLog
    /// Connections the target accepted, and how many of them a test took.
    private let accepted: Accepted

    final class Accepted: Sendable {
        let state = Mutex<(connections: [Connection], taken: Int)>(([], 0))
    }

    /// `seed` draws what a `loss` loses.
    init(seed: UInt64 = 0) throws {
        group = try EventLoopGroup(threads: 1, name: "chaos-test")
        let accepted = Accepted()
        self.accepted = accepted
        target = try Listener(group: group, options: ConnectionOptions(framing: .raw)) { connection in
            accepted.state.withLock { $0.connections.append(connection) }
        }
        let events = EventLog()
        self.events = events
        proxy = try FaultProxy(targetPort: target.localAddress.port, seed: seed) { events.append($0) }
    }

    /// A client connected through the proxy, and the target's end of it.
    func connect() async throws -> (client: Peer, server: Peer) {
        let client = try await dial(proxy.port)
        return (client, try await nextAccepted())
    }

    /// A raw connection to `port` on 127.0.0.1.
    func dial(_ port: UInt16) async throws -> Peer {
        let options = ConnectOptions(timeout: .seconds(5), connection: ConnectionOptions(framing: .raw))
        return Peer(try await Connection.connect(to: "127.0.0.1", port: port, options: options, on: group.next()))
    }

    /// The next connection the target accepted, within `limit`.
    func nextAccepted(within limit: Duration = .seconds(5)) async throws -> Peer {
        let accepted = self.accepted
        return try await withTimeout(limit) {
            while true {
                let next = accepted.state.withLock { state -> Connection? in
                    guard state.taken < state.connections.count else { return nil }
                    state.taken += 1
                    return state.connections[state.taken - 1]
                }
                if let next { return Peer(next) }
                try await Task.sleep(for: .milliseconds(10))
            }
        }
    }

    /// How many connections reached the target.
    var targetAcceptedCount: Int { accepted.state.withLock { $0.connections.count } }

    func close() async {
        await proxy.stop()
        target.close()
        let group = self.group
        // shutdown() joins the loop's thread: kept off the cooperative pool.
        await BlockingCall.run { group.shutdown() }
    }
}

/// The proxy's events as they were reported.
final class EventLog: Sendable {
    private let events = Mutex<[ProxyEvent]>([])

    func append(_ event: ProxyEvent) { events.withLock { $0.append(event) } }

    var all: [ProxyEvent] { events.withLock { $0 } }

    var faults: [FaultEvent] {
        all.compactMap { if case .fault(let event) = $0 { return event } else { return nil } }
    }

    var cuts: [CutEvent] {
        all.compactMap { if case .cut(let event) = $0 { return event } else { return nil } }
    }
}

/// Runs `body` with a fresh harness within `limit`, and closes the harness whatever happens.
@discardableResult
func withChaos<T: Sendable>(
    limit: Duration = .seconds(20), seed: UInt64 = 0, _ body: @escaping @Sendable (ChaosHarness) async throws -> T
) async throws -> T {
    let harness = try ChaosHarness(seed: seed)
    do {
        let value = try await withTimeout(limit) { try await body(harness) }
        await harness.close()
        return value
    } catch {
        await harness.close()
        throw error
    }
}

