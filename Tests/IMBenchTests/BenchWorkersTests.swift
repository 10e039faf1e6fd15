import Foundation
import IMJSON
import IMProcess
import TestSupport
import Testing

/// `imsh bench connect --workers N` and `--server URL,URL`: the real binary spreading sessions
/// over worker processes and over imservers it did not start, and one report of it all.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct BenchWorkersTests {
    static let app = ["--app-key", "imsh-dev", "--app-secret", "imsh-dev-secret"]

    /// An imserver on a free port, its store in `directory`.
    struct Server {
        let process: ChildProcess
        let port: UInt16
        let store: String
        var url: String { "mqtt://127.0.0.1:\(port)" }

        init(directory: String) throws {
            port = try LoopbackPort.free()
            store = directory + "/server.sqlite"
            process = try ChildProcess.spawn(BenchProcess.products + "/imserver", [
                "--listen", "127.0.0.1:\(port)", "--api", "127.0.0.1:0", "--data", directory,
            ], stdout: .null, stderr: .null)
            try #require(LoopbackPort.waitUntilAccepting(port))
        }

        /// SIGTERM, then the users whose devices logged in, as the server's store has them.
        func stopAndReadUsers() async throws -> Set<String> {
            process.signal(SIGTERM)
            _ = await BlockingWait.exit(of: process)
            let store = self.store
            return Set(try await offPool { try SQLiteFiles.rows(store, "SELECT user_id FROM device").map { $0[0] } })
        }
    }

    @Test func twoWorkersConnectEveryAccountAndTheReportMergesThem() async throws {
        let run = try await BenchProcess.run(["connect", "--accounts", "41", "--workers", "2", "--server", "spawn", "--hold", "0.2", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let result = try run.result()
        #expect(result["bench"] == "connect" && result["server"] == "spawn")
        #expect(result.int("accounts") == 41 && result.int("connected") == 41 && result.int("failed") == 0)
        #expect(result.int("connectedAfterHold") == 41)
        #expect(result.object("latency")?.int("count") == 41, "latencies over both workers' sessions")
        let workers = result.objects("workers")
        #expect(workers.map { $0.string("worker") } == ["1/2", "2/2"])
        #expect(workers.map { $0.int("accounts") } == [21, 20] && workers.map { $0.int("connected") } == [21, 20])
        let pids = workers.compactMap { $0.int("pid") }
        #expect(Set(pids).count == 2 && pids.allSatisfy { $0 > 0 })
        // All connected counts from the first connect call; each worker's, from the common start before it.
        let all = try #require(result.number("allConnectedSeconds"))
        let slowest = try #require(workers.compactMap { $0.number("allConnectedSeconds") }.max())
        #expect(all > 0 && all <= slowest + 0.001, "\(all) \(slowest)")
        let memory = try #require(result.object("memory"))
        #expect(memory.int("workers") == 2 && memory["serverInProcess"] == false)
        let grown = (memory.object("connected")?.int("descriptors") ?? 0) - (memory.object("before")?.int("descriptors") ?? 0)
        #expect(grown >= 82, "a socket and a database for each session, in the workers: \(grown)")
        #expect((memory.object("server")?.object("connected")?.int("descriptors") ?? 0) >= 41)

        let text = try await BenchProcess.run(["connect", "--accounts", "6", "--workers", "3", "--server", "spawn"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("connected    all 6 in "))
        for share in ["1/3", "2/3", "3/3"] {
            #expect(text.stdout.contains(" \(share) pid ") && text.stdout.contains("\(share) pid "), "\(text.stdout)")
        }
        #expect(text.stdout.contains("workers      1/3 pid ") && text.stdout.contains("(3 worker processes added up"))
    }

    @Test func messagesFromTwoWorkersAreCountedOnceOverAllPairs() async throws {
        let run = try await BenchProcess.run(
            ["messages", "--pairs", "5", "--rate", "100", "--duration", "1", "--workers", "2", "--server", "spawn", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let result = try run.result()
        // As in one process: 5 senders, one message each 50 ms for 1 s, 20 each; 3 pairs in the first worker, 2 in the second.
        #expect(result.int("sent") == 100 && result.int("acknowledged") == 100 && result.int("received") == 100)
        #expect(result.int("storedAtReceivers") == 100 && result.int("lost") == 0 && result.int("duplicated") == 0)
        #expect(result.object("latency")?.int("count") == 100)
        #expect(result.object("away")?.int("interruptions") == 0)
        let workers = result.objects("workers")
        #expect(workers.map { $0.string("worker") } == ["1/2", "2/2"])
        #expect(workers.map { $0.int("sent") } == [60, 40] && workers.map { $0.int("received") } == [60, 40])
    }

    @Test func aListOfServersTakesTheSessionsInTurn() async throws {
        let data = TemporaryDirectory()
        let first = try Server(directory: data.file("a")), second = try Server(directory: data.file("b"))
        let servers = "\(first.url),\(second.url)"
        let single = try await BenchProcess.run(["connect", "--accounts", "10", "--server", servers, "--json"] + Self.app)
        #expect(single.status == 0, "\(single.stderr)")
        let result = try single.result()
        #expect(result["server"] == "list" && result.int("connected") == 10)
        #expect(result.objects("servers").map { "\($0.string("url") ?? "") \($0.int("accounts") ?? -1) \($0.int("connected") ?? -1)" }
                == ["\(first.url) 5 5", "\(second.url) 5 5"])

        // Workers and a list together: 11 sessions, the first server one more.
        let spread = try await BenchProcess.run(["connect", "--accounts", "11", "--workers", "2", "--server", servers, "--json"] + Self.app)
        #expect(spread.status == 0, "\(spread.stderr)")
        let merged = try spread.result()
        #expect(merged.int("connected") == 11 && merged.objects("workers").count == 2)
        #expect(merged.objects("servers").map { $0.int("connected") } == [6, 5])

        // Each server's own store saw its share only: bench0, bench2, ... and bench1, bench3, ...
        #expect(try await first.stopAndReadUsers() == Set(stride(from: 0, to: 11, by: 2).map { "bench\($0)" }))
        #expect(try await second.stopAndReadUsers() == Set(stride(from: 1, to: 11, by: 2).map { "bench\($0)" }))
    }

    @Test func aWorkerThatFailsFailsTheRunAndTheOthersAreStopped() async throws {
        let data = TemporaryDirectory()
        // Worker 2 cannot make its data directory: a file is in the way.
        try FileManager.default.createDirectory(atPath: data.file("clients"), withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: data.file("clients/worker2"), contents: Data()))
        let run = try await BenchProcess.run(["connect", "--accounts", "6", "--workers", "2", "--server", "spawn", "--data", data.path])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("imsh bench connect: worker 2/2 (pid "), "\(run.stderr)")
        #expect(run.stderr.contains("did not get its sessions ready") && run.stderr.contains("cannot create the data directory"),
                "\(run.stderr)")
        let first = "\(BenchProcess.imsh) bench connect --worker 1/2 --threads 2 --timeout 60.0 --data \(data.path)/clients/worker1 --json --accounts 3"
        #expect(LiveProcesses.awaitGone(first).isEmpty, "worker 1 was stopped")

        // The same worker, alive while a run holds its sessions: the command line above is a worker's.
        try FileManager.default.removeItem(atPath: data.file("clients/worker2"))
        async let held = BenchProcess.run(["connect", "--accounts", "6", "--workers", "2", "--server", "spawn", "--data", data.path, "--hold", "2"])
        var seen = false
        for _ in 0..<100 where !seen {
            seen = !LiveProcesses.matching(first).isEmpty
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(seen, "worker 1 runs as \(first)")
        #expect(try await held.status == 0)

        // A worker killed while the sessions are held: the run fails, naming it.
        async let killed = BenchProcess.run(["connect", "--accounts", "6", "--workers", "2", "--server", "spawn", "--data", data.path, "--hold", "2"])
        var victim: Int32?
        for _ in 0..<100 where victim == nil {
            victim = LiveProcesses.matching(first).first
            try await Task.sleep(for: .milliseconds(50))
        }
        let pid = try #require(victim)
        kill(pid, SIGKILL)
        let failed = try await killed
        #expect(failed.status == 1)
        #expect(failed.stderr.hasPrefix("imsh bench connect: worker 1/2 (pid \(pid)) "), "\(failed.stderr)")
        #expect(failed.stderr.contains("(killed)"), "\(failed.stderr)")
    }

    /// The workers inherit imsh's limit: a share that cannot fit fails the run before anything starts.
    @Test func aShareTooLargeForTheDescriptorLimitFailsAtOnce() async throws {
        let run = try await BenchProcess.runWithFewDescriptors(["connect", "--accounts", "100", "--workers", "2", "--server", "spawn"])
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("imsh bench connect: one worker's share: 50 sessions need about 214 open files, but the limit is 64"),
                "\(run.stderr)")
        #expect(run.stderr.contains("--workers N"), "\(run.stderr)")
    }

    @Test(arguments: [
        (["connect", "--accounts", "2", "--workers", "2"], "--workers needs a server apart from this process"),
        (["connect", "--accounts", "2", "--worker", "3/2"], "--worker wants K/N with 1 <= K <= N, not '3/2'"),
        (["connect", "--accounts", "2", "--server", "mqtt://127.0.0.1:1"], "give --app-key and --app-secret"),
        (["connect", "--accounts", "2", "--server", "mqtt://127.0.0.1:1,http://h"], "not 'http://h'"),
        (["login", "--connections", "2", "--server", "mqtt://127.0.0.1:1"], "--server URLs go with bench connect, messages and reconnect"),
        (["reconnect", "--accounts", "2", "--server", "mqtt://127.0.0.1:1", "--app-key", "k", "--app-secret", "s"],
         "--server URL,... needs --kill PID"),
        (["reconnect", "--accounts", "2", "--kill", "1234567"], "--kill goes with --server URL,URL,..."),
    ])
    func usageErrorsSayWhatToFix(arguments: [String], message: String) async throws {
        let run = try await BenchProcess.run(arguments)
        #expect(run.status == 2)
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }

    @Test func aWorkerAloneWithoutItsParentSaysWhatItWants() async throws {
        let run = try await BenchProcess.run(["connect", "--accounts", "1", "--worker", "1/1", "--json"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("expected the accounts on standard input"), "\(run.stderr)")
    }
}
