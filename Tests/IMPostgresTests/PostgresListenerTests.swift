import Foundation
import IMPostgres
import Synchronization
import Testing
import TestSupport

/// The listener against a real PostgreSQL: notifications in order, none after stop(), and a
/// new onConnected after the server restarts, with the notifications sent after it.
@Suite(.timeLimit(.minutes(1)))
struct PostgresListenerTests {
    /// What a listener's callbacks saw.
    final class Heard: Sendable {
        let connects = Counter()
        let payloads = Mutex<[String]>([])
        var received: [String] { payloads.withLock { $0 } }

        func listener(_ conninfo: String, channel: String = "events") -> PostgresListener {
            PostgresListener(conninfo: conninfo, channel: channel, onConnected: { [self] in
                connects.increment()
            }, onNotification: { [self] payload in
                payloads.withLock { $0.append(payload) }
            })
        }
    }

    static func notify(_ server: PostgresServer, _ payloads: [String], channel: String = "events") async throws {
        try await server.withConnection { connection in
            for payload in payloads { try connection.execute("SELECT pg_notify($1, $2)", [.text(channel), .text(payload)]) }
        }
    }

    @Test func deliversInOrderAndNothingAfterStop() async throws {
        let server = try await PostgresServer.start()
        let heard = Heard()
        let listener = heard.listener(server.stock.url)
        #expect(await waitUntil { heard.connects.value == 1 })
        let payloads = (0..<200).map { "payload \($0) ✓" }
        try await Self.notify(server, payloads)
        // Another channel's notifications are not delivered.
        try await Self.notify(server, ["elsewhere"], channel: "other")
        _ = try await server.withConnection { connection in
            try connection.transaction { connection in
                try connection.execute("SELECT pg_notify('events', 'in a transaction')")
            }
        }
        #expect(await waitUntil { heard.received.count == 201 })
        #expect(heard.received == payloads + ["in a transaction"])
        listener.stop()
        try await Self.notify(server, ["after stop"])
        try await Task.sleep(for: .milliseconds(200))
        #expect(heard.received.count == 201)
        #expect(heard.connects.value == 1)
    }

    @Test func reconnectsAfterARestart() async throws {
        let server = try await PostgresServer.start()
        let heard = Heard()
        let listener = heard.listener(server.stock.url)
        defer { listener.stop() }
        #expect(await waitUntil { heard.connects.value == 1 })
        try await Self.notify(server, ["before"])
        #expect(await waitUntil { heard.received == ["before"] })
        server.stock.stop()
        try await Task.sleep(for: .milliseconds(300))
        try server.stock.restart()
        #expect(await waitUntil { heard.connects.value == 2 })
        try await Self.notify(server, ["after"])
        #expect(await waitUntil { heard.received == ["before", "after"] })
    }

    /// While the server is down its port is kept: a server another test starts meanwhile cannot
    /// take it, so a client meant to find no server does not log in to that one.
    @Test func aStoppedServersPortIsKeptUntilItsRestart() async throws {
        let server = try await PostgresServer.start()
        let port = server.stock.port
        for outage in [server.stock.stop, server.stock.kill] {
            outage()
            #expect(!LoopbackPort.canBind(port))
            #expect(!LoopbackPort.accepts(port))
            try server.stock.restart()
            #expect(try await server.withConnection { try $0.execute("SELECT 1").rows.count } == 1)
        }
    }

    @Test func keepsTryingWhileTheServerIsDownAndStopsPromptly() async throws {
        let server = try await PostgresServer.start()
        server.stock.stop()
        let heard = Heard()
        let listener = heard.listener(server.stock.url)
        try await Task.sleep(for: .milliseconds(500))
        #expect(heard.connects.value == 0)
        try server.stock.restart()
        // Backoff is at most 2 s between attempts.
        #expect(await waitUntil { heard.connects.value == 1 })
        server.stock.stop()
        try await Task.sleep(for: .milliseconds(200))
        let start = ContinuousClock.now
        try await offPool { listener.stop() }
        // The pipe wakes the thread from poll() at once; a second and a half leaves room for a
        // loaded machine (a second was too little once, in CI's cluster phase).
        #expect(ContinuousClock.now - start < .milliseconds(1_500))
    }
}
