import Foundation
@testable import IMServer
import Synchronization
import Testing
import TestSupport

/// imsh killed with SIGKILL while messages pour in: what it acknowledged is on disk, the rest
/// comes again after a restart, and every SQLite file it wrote is sound.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct CrashSafetyTests {
    static let device = "bob-crash"
    /// Messages queued while bob is offline, then sent live while imsh takes the backlog.
    static let backlog = 3000, live = 1000

    @Test func imshKilledDuringABurstKeepsWhatItAcknowledgedAndGetsTheRestAfterARestart() async throws {
        let server = try await TestServer.start()
        let sandbox = Sandbox(shipped: false)
        let token = try await server.token(for: "bob")
        sandbox.write(server.profile(accounts: #"{ "bob": { "token": "\#(token)", "deviceId": "\#(Self.device)" } }"#),
                      to: "profiles/remote.json")

        // A first run registers the device; its queue then fills while it is away.
        let first = try await sandbox.json("connect remote/bob; quit")
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        var published: [String] = []
        for index in 0..<Self.backlog { published.append(try await publish(server, "backlog \(index)")) }

        let victim = try RunningImsh(sandbox, ["--json"], name: "killed")
        try victim.send("connect remote/bob")
        let livePublisher = Task { [server] in
            var uids: [String] = []
            for index in 0..<Self.live { uids.append(try await publish(server, "live \(index)")) }
            return uids
        }
        // Kill it once it has acknowledged a good part of the backlog, well before the end.
        let deadline = ContinuousClock.now + .seconds(30)
        while try await pendingCount(server) > Self.backlog * 3 / 4 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(2))
        }
        try await victim.kill()
        published += try await livePublisher.value
        try await waitUntilOffline(server)

        // Acknowledged = no longer in the device's queue. Each of those is in imsh's database.
        let queued = Set(try await server.server.store.pending(
            appKey: TestServer.appKey, userID: "bob", deviceID: Self.device, limit: 100_000).map(\.uid))
        let acknowledged = Set(published).subtracting(queued)
        #expect(acknowledged.count >= Self.backlog / 4 && !queued.isEmpty, "killed in the middle of the burst")
        let afterKill = try await receivedUIDs(sandbox)
        #expect(acknowledged.subtracting(afterKill).isEmpty, "acknowledged but not stored: \(acknowledged.subtracting(afterKill).count)")
        try await expectSoundFiles(sandbox)

        // Restarted, it takes the rest; every message is stored exactly once.
        let restarted = try RunningImsh(sandbox, ["--json"], name: "restarted")
        try restarted.send("connect remote/bob")
        let drained = ContinuousClock.now + .seconds(60)
        while try await pendingCount(server) > 0 && ContinuousClock.now < drained {
            try await Task.sleep(for: .milliseconds(20))
        }
        try restarted.send("quit")
        restarted.closeInput()
        let ended = try await restarted.finish(within: .seconds(20))
        #expect(ended == .exited(0), "\(restarted.output)")
        await server.stop()

        let final = try await receivedUIDs(sandbox)
        #expect(final.count == published.count && final == Set(published), "every message arrived")
        try await expectSoundFiles(sandbox)
    }

    private func publish(_ server: TestServer, _ text: String) async throws -> String {
        try await server.server.backend.publish(appKey: TestServer.appKey, from: "alice", to: ["bob"], text: text)
    }

    private func pendingCount(_ server: TestServer) async throws -> Int {
        try await server.server.store.pendingCount(appKey: TestServer.appKey, userID: "bob", deviceID: Self.device)
    }

    /// The server notices the dead connection (and finishes the acknowledgements it had read).
    private func waitUntilOffline(_ server: TestServer) async throws {
        for _ in 0..<500 where await server.server.backend.isOnline(appKey: TestServer.appKey, userID: "bob") {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(await server.server.backend.isOnline(appKey: TestServer.appKey, userID: "bob") == false)
    }

    /// The uids of bob's incoming messages in his database; records an issue for a uid stored twice.
    private func receivedUIDs(_ sandbox: Sandbox) async throws -> Set<String> {
        let files = SQLiteFiles.all(under: sandbox.data).filter { $0.hasSuffix("/bob.sqlite") }
        let file = try #require(files.count == 1 ? files.first : nil, "bob's database among \(SQLiteFiles.all(under: sandbox.data))")
        let uids = try await offPool { try SQLiteFiles.rows(file, "SELECT uid FROM message WHERE direction = 0").map { $0[0] } }
        let unique = Set(uids)
        #expect(unique.count == uids.count, "a message stored twice")
        return unique
    }

    private func expectSoundFiles(_ sandbox: Sandbox) async throws {
        let files = SQLiteFiles.all(under: sandbox.data)
        #expect(!files.isEmpty)
        for file in files {
            #expect(try await offPool { try SQLiteFiles.integrityCheck(file) } == ["ok"], "\(file)")
        }
    }
}
