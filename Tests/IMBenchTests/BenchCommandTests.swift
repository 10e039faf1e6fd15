import Foundation
import IMJSON
import IMProcess
import TestSupport
import Testing

/// The real imsh binary running each bench, with both server modes, and its errors.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct BenchCommandTests {
    /// p50 <= p90 <= p99 <= max, all positive, over `count` samples.
    func expectOrderedLatency(_ result: JSONObject, count: Int64, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        guard let latency = result.object("latency") else {
            Issue.record("no latency in \(result)", sourceLocation: sourceLocation)
            return
        }
        let values = ["p50Ms", "p90Ms", "p99Ms", "maxMs"].compactMap { latency.number($0) }
        #expect(values.count == 4 && values == values.sorted() && values[0] > 0, "\(latency)", sourceLocation: sourceLocation)
        #expect(latency.int("count") == count, sourceLocation: sourceLocation)
    }

    @Test(arguments: ["embedded", "spawn"])
    func connectReportsEverySessionConnectedWithMemoryAndDescriptors(server: String) async throws {
        let run = try await BenchProcess.run(["connect", "--accounts", "20", "--server", server, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let result = try run.result()
        #expect(result["type"] == "result" && result["bench"] == "connect" && result["server"] == .string(server))
        #expect(result.int("accounts") == 20 && result.int("connected") == 20 && result.int("failed") == 0)
        #expect(result.object("failures")?.count == 0)
        #expect((result.number("allConnectedSeconds") ?? 0) > 0 && (result.number("connectsPerSecond") ?? 0) > 0)
        expectOrderedLatency(result, count: 20)
        let memory = try #require(result.object("memory"))
        #expect(memory["serverInProcess"] == .bool(server == "embedded"))
        let before = try #require(memory.object("before")), connected = try #require(memory.object("connected"))
        #expect((connected.int("rssKB") ?? 0) > 0 && (connected.int("rssAnonKB") ?? 0) > 0 && (connected.int("rssFileKB") ?? 0) > 0)
        // Each session holds at least its socket and its database file.
        #expect((connected.int("descriptors") ?? 0) - (before.int("descriptors") ?? 0) >= 40)
        if server == "spawn" {
            let imserver = try #require(memory.object("server"))
            #expect((imserver.int("pid") ?? 0) > 0)
            #expect((imserver.object("connected")?.int("rssKB") ?? 0) > 0)
            #expect((imserver.object("connected")?.int("descriptors") ?? 0) >= 20, "one socket per connection")
        } else {
            #expect(memory["server"] == nil)
        }
    }

    @Test(arguments: ["embedded", "spawn"])
    func loginReportsTheServersLoginsAndItsMemoryPerConnection(server: String) async throws {
        let run = try await BenchProcess.run(["login", "--connections", "60", "--window", "16", "--server", server, "--hold", "0.2", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let result = try run.result()
        #expect(result["bench"] == "login" && result["server"] == .string(server))
        #expect(result.int("connections") == 60 && result.int("accepted") == 60 && result.object("failures")?.count == 0)
        #expect((result.number("loginsPerSecond") ?? 0) > 0)
        #expect(result.int("openAfterHold") == 60)
        expectOrderedLatency(result, count: 60)
        let memory = try #require(result.object("memory"))
        if server == "spawn" {
            let imserver = try #require(memory.object("server"))
            #expect((imserver.object("connected")?.int("descriptors") ?? 0) >= 60, "one socket per open login")
        }
    }

    @Test func aSecondRunOnTheSameDataFindsTheDatabases() async throws {
        let data = NSTemporaryDirectory() + "imsh-bench-test-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: data) }
        let first = try await BenchProcess.run(["connect", "--accounts", "5", "--data", data, "--json"])
        let second = try await BenchProcess.run(["connect", "--accounts", "5", "--data", data, "--json", "--hold", "0.2"])
        #expect(try first.result().int("existingDatabases") == 0)
        let result = try second.result()
        #expect(result.int("existingDatabases") == 5 && result.int("connected") == 5)
        #expect(result.int("connectedAfterHold") == 5)
        #expect(FileManager.default.fileExists(atPath: data + "/server/server.sqlite"), "--data is kept")
    }

    @Test func aProfileGivesItsServerAndItsAccounts() async throws {
        let profiles = NSTemporaryDirectory() + "imsh-bench-profiles-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: profiles) }
        try FileManager.default.createDirectory(atPath: profiles, withIntermediateDirectories: true)
        let profile = """
            {"appKey": "bench-app", "appSecret": "bench-app-secret", "server": "embedded",
             "accounts": {"a": {"userId": "ann"}, "b": {"userId": "ben"}, "c": {"userId": "cy"}}}
            """
        #expect(FileManager.default.createFile(atPath: profiles + "/load.json", contents: Data(profile.utf8), attributes: [.posixPermissions: 0o600]))
        let all = try await BenchProcess.run(["connect", "--profile", "load", "--profiles", profiles, "--json"])
        #expect(all.status == 0, "\(all.stderr)")
        #expect(try all.result().int("accounts") == 3 && all.result().int("connected") == 3)
        let two = try await BenchProcess.run(["connect", "--profile", "load", "--profiles", profiles, "--accounts", "2", "--json"])
        #expect(try two.result().int("connected") == 2)
        let missing = try await BenchProcess.run(["connect", "--profile", "nope", "--profiles", profiles])
        #expect(missing.status == 1 && missing.stderr == "imsh bench connect: --profile nope: the profile is not in \(profiles)\n")
        // Messages between users made on the profile's server.
        let messages = try await BenchProcess.run(
            ["messages", "--pairs", "2", "--rate", "40", "--duration", "0.5", "--profile", "load", "--profiles", profiles, "--json"])
        #expect(messages.status == 0, "\(messages.stderr)")
        let result = try messages.result()
        #expect(result["server"] == "embedded" && result.int("sent") == 20 && result.int("received") == 20 && result.int("lost") == 0)
    }

    @Test(arguments: ["embedded", "spawn"])
    func messagesArriveOnceEachWithLatencies(server: String) async throws {
        let run = try await BenchProcess.run(["messages", "--pairs", "5", "--rate", "100", "--duration", "2", "--server", server, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let result = try run.result()
        #expect(result["bench"] == "messages" && result.int("pairs") == 5)
        // 5 senders, one message each 50 ms, staggered by 10 ms, for 2 s: 40 each.
        #expect(result.int("sent") == 200)
        #expect(result.int("acknowledged") == 200 && result.int("received") == 200 && result.int("storedAtReceivers") == 200)
        #expect(result.int("lost") == 0 && result.int("duplicated") == 0 && result.int("unanswered") == 0)
        #expect((result.number("throughput") ?? 0) > 0)
        expectOrderedLatency(result, count: 200)
        // No session left connected while sending.
        #expect(result.object("away")?.int("interruptions") == 0 && result.object("away")?["medianMs"] == .null)
        // What sending cost: this process always; a spawned server apart, an embedded one inside.
        let usage = try #require(result.object("usage"))
        #expect((usage.object("client")?.number("cpuMicrosecondsPerMessage") ?? 0) > 0)
        #expect((usage.object("client")?.number("contextSwitchesPerMessage") ?? 0) > 0)
        // The engine's event loops' share: there, and a part of the whole.
        let loops = try #require(usage.object("client")?.number("eventLoopCpuMicrosecondsPerMessage"))
        #expect(loops >= 0 && loops <= (usage.object("client")?.number("cpuMicrosecondsPerMessage") ?? 0))
        #expect(usage["serverInProcess"] == .bool(server == "embedded"))
        #expect((usage.object("server")?.number("cpuMicrosecondsPerMessage") ?? 0) > 0 || server == "embedded")
    }

    @Test(arguments: ["embedded", "spawn"])
    func reconnectBringsEverySessionBack(server: String) async throws {
        let run = try await BenchProcess.run(["reconnect", "--accounts", "10", "--down", "0.5", "--server", server, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let result = try run.result()
        #expect(result["bench"] == "reconnect" && result.number("jitter") == 0.5)
        #expect(result.int("dropped") == 10 && result.int("reconnected") == 10)
        let first = try #require(result.number("firstBackSeconds")), all = try #require(result.number("allBackSeconds"))
        #expect(first <= all && all < 60)
        let peak = try #require(result.int("peakConnectsPerSecondClientSide"))
        #expect((1...10).contains(peak))
    }

    @Test func textOutputWithoutATerminalHasPlainLinesOnly() async throws {
        let run = try await BenchProcess.run(["connect", "--accounts", "3"])
        #expect(run.status == 0)
        #expect(!run.stdout.contains("\r") && !run.stdout.contains("\u{1B}"))
        #expect(run.stdout.contains("connected    all 3 in "))
        #expect(run.stdout.contains("failures     none"))
    }

    @Test func onATerminalTheProgressLineIsRewrittenInPlace() async throws {
        let terminal = try PseudoTerminal()
        defer { terminal.close() }
        let child = try ChildProcess.spawn(
            BenchProcess.imsh, ["bench", "reconnect", "--accounts", "3", "--down", "1"],
            stdin: .null, stdout: .descriptor(terminal.slave), stderr: .descriptor(terminal.slave))
        let ending = try await withTimeout(.seconds(60)) { await BlockingWait.exit(of: child) }
        terminal.settle()
        let text = String(decoding: terminal.bytes, as: UTF8.self)
        #expect(ending == .exited(0), "\(text)")
        #expect(text.contains("\r\u{1B}[Kdown: "), "the line is rewritten in place: \(text.debugDescription)")
        // The progress line is erased before the result.
        #expect(text.contains("\r\u{1B}[Kreconnect    3 sessions, jitter 0.5, server embedded"))
    }

    @Test func usageErrorsExitTwoWithOneLine() async throws {
        let cases: [([String], String)] = [
            (["connect"], "imsh bench connect: --accounts is required (see 'imsh bench connect --help')\n"),
            (["connect", "--accounts", "many"], "imsh bench connect: --accounts wants a whole number from 1 to 1000000, not 'many'\n"),
            (["messages", "--pairs", "2", "--server", "remote"],
             "imsh bench messages: --server wants embedded, spawn or MQTT URLs separated by commas, not 'remote': "
                + "expected mqtt://HOST:PORT, mqtts://HOST:PORT, ws://HOST:PORT/PATH or wss://HOST:PORT/PATH\n"),
            (["reconnect", "--accounts", "2", "--jitter", "2"], "imsh bench reconnect: --jitter wants a number from 0 to 1, not '2'\n"),
            (["fly"], "imsh bench: unknown bench 'fly': use connect, messages, reconnect, shell, login, server or chaos\n"),
            ([], "imsh bench: missing bench: connect, messages, reconnect, shell, login, server or chaos (see 'imsh bench --help')\n"),
        ]
        for (arguments, message) in cases {
            let run = try await BenchProcess.run(arguments)
            #expect(run.status == 2 && run.stderr == message && run.stdout.isEmpty, "\(arguments): \(run.stderr)")
        }
        let help = try await BenchProcess.run(["messages", "--help"])
        #expect(help.status == 0 && help.stdout.hasPrefix("imsh bench messages: "))
        #expect(help.stdout.contains("--pairs N") && help.stdout.contains("--server embedded|spawn"))
    }

    /// With both limits at 64 (and, where it runs as root, no CAP_SYS_RESOURCE to lift them),
    /// 1,000 sessions cannot fit: one line says so at once.
    @Test func tooFewDescriptorsFailsAtOnceSayingWhatToDo() async throws {
        let run = try await BenchProcess.runWithFewDescriptors(["connect", "--accounts", "1000"])
        #expect(run.status == 1)
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(run.stderr.hasPrefix(
            "imsh bench connect: 1000 sessions need about 2192 open files, but the limit is 64 (hard limit 64) and cannot be raised"))
        #expect(run.stderr.contains("'ulimit -n 2192'") && run.stderr.contains("fewer --accounts") && run.stderr.contains("--server spawn"))
    }
}
