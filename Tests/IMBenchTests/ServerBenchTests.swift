import Foundation
import IMJSON
import IMProcess
import TestSupport
import Testing

/// `imsh bench server`: the real binary driving an imserver it did not start, and a stock
/// mosquitto, with the same clients; the figures hold together.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ServerBenchTests {
    /// Every message published was acknowledged and delivered once; the figures are consistent.
    func expectConsistent(_ result: JSONObject, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let published = result.int("published") ?? -1
        #expect(published > 0, sourceLocation: sourceLocation)
        #expect(result.int("acknowledged") == published && result.int("delivered") == published, "\(result)", sourceLocation: sourceLocation)
        #expect(result.int("lost") == 0 && result.int("duplicated") == 0, sourceLocation: sourceLocation)
        let latency = result.object("latency")
        let ranks = ["p50Ms", "p90Ms", "p99Ms", "maxMs"].map { latency?.number($0) ?? -1 }
        #expect(ranks.allSatisfy { $0 >= 0 } && ranks == ranks.sorted(), "\(ranks)", sourceLocation: sourceLocation)
        #expect((result.number("messagesPerSecond") ?? 0) > 0, sourceLocation: sourceLocation)
    }

    @Test func drivesImserverWithTokensAndReadsItsCost() async throws {
        let data = TemporaryDirectory()
        let (port, webSocketPort) = (try LoopbackPort.free(), try LoopbackPort.free())
        let server = try ChildProcess.spawn(BenchProcess.products + "/imserver", [
            "--listen", "127.0.0.1:\(port)", "--api", "127.0.0.1:0", "--ws-listen", "127.0.0.1:\(webSocketPort)",
            "--data", data.path + "/server",
        ], stdout: .null, stderr: .null)
        defer {
            server.signal(SIGKILL)
            _ = server.wait()
        }
        try #require(LoopbackPort.waitUntilAccepting(port))
        let common = ["server", "--target", "mqtt://127.0.0.1:\(port)", "--app-key", "imsh-dev", "--app-secret", "imsh-dev-secret",
                      "--pairs", "5", "--duration", "1", "--server-pid", String(server.pid), "--json"]
        let saturated = try await BenchProcess.run(common)
        #expect(saturated.status == 0, "\(saturated.stdout)\(saturated.stderr)")
        let result = try saturated.result()
        #expect(result["bench"] == "server" && result["rate"] == .null)
        expectConsistent(result)
        let cost = try #require(result.object("server"))
        #expect((cost.number("cpuMicrosecondsPerMessage") ?? 0) > 0 && cost.number("contextSwitchesPerMessage") != nil)
        #expect(cost.number("kibPerConnection") != nil)
        // Five pairs log in as one pair, then four: the second wave's memory is read on its own.
        #expect(cost.int("firstWaveConnections") == 2 && cost.number("kibPerLaterConnection") != nil, "\(cost)")

        // Open loop: 400 messages/s for 1 s is 400 messages, give or take a publisher's first.
        let offered = try await BenchProcess.run(common + ["--rate", "400"])
        #expect(offered.status == 0, "\(offered.stderr)")
        let rated = try offered.result()
        expectConsistent(rated)
        #expect((396...404).contains(rated.int("published") ?? 0), "\(rated)")
        // Its deliveries second by second (a stall shows as one second's p99): every one counted once.
        guard case .array(let seconds)? = rated.object("figures")?["perSecond"] else {
            Issue.record("no per-second figures in \(rated)")
            return
        }
        let counts = seconds.compactMap { $0.objectValue?.int("messages") }
        #expect(counts.count == seconds.count && counts.reduce(0, +) == rated.int("delivered"), "\(seconds)")
        #expect(seconds.allSatisfy { ($0.objectValue?.number("p99Ms") ?? -1) >= ($0.objectValue?.number("p50Ms") ?? 0) })

        // The same clients over WebSocket, to the same server.
        try #require(LoopbackPort.waitUntilAccepting(webSocketPort))
        let overWebSocket = try await BenchProcess.run([
            "server", "--target", "ws://127.0.0.1:\(webSocketPort)/mqtt", "--app-key", "imsh-dev", "--app-secret", "imsh-dev-secret",
            "--pairs", "2", "--duration", "1", "--json",
        ])
        #expect(overWebSocket.status == 0, "\(overWebSocket.stdout)\(overWebSocket.stderr)")
        let webSocketResult = try overWebSocket.result()
        #expect(webSocketResult["target"] == .string("ws://127.0.0.1:\(webSocketPort)/mqtt"))
        expectConsistent(webSocketResult)
    }

    @Test func drivesAStockMosquittoWithUsersFromAFile() async throws {
        let directory = TemporaryDirectory()
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        // mosquitto queues 1,000 messages a client by default and drops the rest after
        // acknowledging them to their publisher: saturated receivers would count them lost.
        let broker = try StockMosquitto(
            directory: directory.path, users: ["bench": "secret-1"], settings: "max_queued_messages 1000000", webSocket: true)
        defer { broker.stop() }
        let users = directory.path + "/users"
        try "bench:secret-1\n".write(toFile: users, atomically: true, encoding: .utf8)
        let run = try await BenchProcess.run([
            "server", "--target", "mqtt://127.0.0.1:\(broker.port)", "--topics", "plain", "--users", users,
            "--pairs", "3", "--duration", "1", "--json",
        ])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let result = try run.result()
        expectConsistent(result)
        #expect(result["server"] == .null, "no --server-pid: no server figures")
        let overWebSocket = try await BenchProcess.run([
            "server", "--target", "ws://127.0.0.1:\(try #require(broker.webSocketPort))", "--topics", "plain", "--users", users,
            "--pairs", "2", "--duration", "1", "--json",
        ])
        #expect(overWebSocket.status == 0, "\(overWebSocket.stdout)\(overWebSocket.stderr)")
        expectConsistent(try overWebSocket.result())

        try "bench:wrong\n".write(toFile: users, atomically: true, encoding: .utf8)
        let refused = try await BenchProcess.run([
            "server", "--target", "mqtt://127.0.0.1:\(broker.port)", "--topics", "plain", "--users", users, "--pairs", "1",
        ])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("could not log in") && refused.stderr.contains("CONNACK"), "\(refused.stderr)")
    }

    @Test(arguments: [
        (["server"], "--target is required"),
        (["server", "--target", "mqtt://127.0.0.1:1"], "--topics im logs in with tokens: give --app-key and --app-secret"),
        (["server", "--target", "http://h", "--topics", "plain"], "--target wants mqtt://HOST[:PORT] or ws://HOST[:PORT][/PATH], not 'http://h'"),
        (["server", "--target", "mqtt://h", "--topics", "plain", "--server", "spawn"], "do not apply to bench server"),
        (["server", "--target", "mqtt://h", "--app-key", "k"], "--app-key and --app-secret go together"),
        (["server", "--target", "mqtt://h", "--topics", "plain", "--users", "/nonexistent"], "--users /nonexistent: cannot read the file"),
    ])
    func usageErrorsSayWhatToFix(arguments: [String], message: String) async throws {
        let run = try await BenchProcess.run(arguments)
        #expect(run.status == 2)
        #expect(run.stderr.contains(message), "\(run.stderr)")
    }
}
