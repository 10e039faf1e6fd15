import Foundation
import Testing

/// Ctrl-C (SIGINT) or a CI's SIGTERM to `imsh test`: the scenarios under way stop, their data
/// directories go, and it exits with 128 + the signal, saying so.
@Suite(.timeLimit(.minutes(2)))
struct ImshTestInterruptionTests {
    /// The pids of the processes whose command line has `word` as an argument, with their arguments.
    static func processes(naming word: String) -> [(pid: Int32, arguments: [String])] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry in
            guard let pid = Int32(entry), let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { return nil }
            let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return arguments.contains(word) ? (pid, arguments) : nil
        }
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func anInterruptedRunStopsItsScenariosAndRemovesTheirData(signal: Int32) async throws {
        let sandbox = Sandbox()
        let script = sandbox.write("connect bob-phone\nsleep 60\n", to: "sc/long.imsh")
        let run = try RunningImsh(sandbox, ["test", "--profiles", sandbox.profiles, script], name: "test", inSandbox: false)
        // The scenario's own imsh: its command line names the script after --data DIR.
        var scenario: (pid: Int32, arguments: [String])?
        let deadline = ContinuousClock.now + .seconds(30)
        while scenario == nil, ContinuousClock.now < deadline {
            scenario = Self.processes(naming: script).first { $0.pid != run.process.pid && $0.arguments.contains("--data") }
            if scenario == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        let child = try #require(scenario, "no scenario process started: \(run.output)")
        let data = try #require(child.arguments.firstIndex(of: "--data").map { child.arguments[$0 + 1] })
        #expect(FileManager.default.fileExists(atPath: data))
        // Its session is connected: the scenario is under way, not starting.
        try await Task.sleep(for: .seconds(1))

        run.process.signal(signal)
        let termination = try await run.finish(within: .seconds(20))
        #expect(termination?.status == 128 + signal, "\(run.output)")
        let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
        #expect(run.output.contains("imsh test: interrupted by \(name)"), "\(run.output)")
        #expect(Self.processes(naming: script).isEmpty, "the scenario still runs")
        #expect(!FileManager.default.fileExists(atPath: data), "\(data) is left behind")
    }
}
