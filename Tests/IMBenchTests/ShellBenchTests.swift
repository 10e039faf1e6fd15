import Foundation
import IMJSON
import TestSupport
import Testing

/// `imsh bench shell`: the real binary timing its own shell over a generated profile.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ShellBenchTests {
    @Test func everyCommandIsTimedAndEveryAccountReported() async throws {
        let run = try await BenchProcess.run(["shell", "--accounts", "40", "--json"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let result = try run.result()
        #expect(result["bench"] == "shell" && result.int("accounts") == 40 && result["ok"] == true)
        guard case .array(let values)? = result["commands"] else {
            Issue.record("no commands in \(result)")
            return
        }
        let commands = values.compactMap { $0.objectValue }
        #expect(commands.map { $0["command"]?.stringValue } == [
            "connect all", "wait all connected --timeout 60", "status", "disconnect all", "connect all",
            "wait all connected --timeout 60", "status",
        ])
        #expect(commands.allSatisfy { $0["ok"] == true && ($0.number("seconds") ?? -1) >= 0 })
        // connecting (10) and connected (0) for each account, each time; signOut (12) once each.
        #expect(commands.map { $0.int("events") } == [80, 0, 0, 40, 80, 0, 0])
        #expect((result.int("shellResidentKiB") ?? 0) > 0)
    }

    @Test func noWaitTimesThePromptAndTheWaitHoldsTheRest() async throws {
        let run = try await BenchProcess.run(["shell", "--accounts", "40", "--no-wait", "--json"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let result = try run.result()
        guard case .array(let values)? = result["commands"] else {
            Issue.record("no commands in \(result)")
            return
        }
        let commands = values.compactMap { $0.objectValue }
        #expect(commands.map { $0["command"]?.stringValue }.first == "connect all --no-wait")
        #expect(commands.allSatisfy { $0["ok"] == true })
        // The connections' events arrive with the result or during the wait: 80 between them.
        let events = commands.map { $0.int("events") ?? 0 }
        #expect(events.count == 7 && events[0] + events[1] == 80 && events[4] + events[5] == 80, "\(events)")
    }

    @Test func anotherExecutableCanBeTimedAndOptionsAreChecked() async throws {
        let missing = try await BenchProcess.run(["shell", "--accounts", "2", "--shell", "/nonexistent/imsh"])
        #expect(missing.status == 2 && missing.stderr.contains("--shell /nonexistent/imsh is not an executable file"))
        let spawn = try await BenchProcess.run(["shell", "--accounts", "2", "--server", "spawn"])
        #expect(spawn.status == 2 && spawn.stderr.contains("do not apply to bench shell"))
        let other = try await BenchProcess.run(["shell", "--accounts", "3", "--shell", BenchProcess.imsh, "--json"])
        #expect(other.status == 0, "\(other.stderr)")
        #expect(try other.result()["ok"] == true)
    }
}
