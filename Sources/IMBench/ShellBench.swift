import Foundation
import IMCommandLine
import IMProcess

/// `imsh bench shell`: the shell itself over a profile of N accounts on its embedded server,
/// each command timed from the line sent to its result read.
struct ShellBench: BenchCommand {
    static let spec = CommandSpec.bench(
        "shell",
        summary: "time the shell's commands over a profile of many accounts",
        usage: "--accounts N [--no-wait] [--shell PATH] [--data DIR] [--timeout S] [--json] [--report FILE.html]",
        options: [
            OptionSpec("--accounts", value: "N", help: "how many accounts the profile has (users shell00001...)"),
            OptionSpec("--no-wait", help: "connect with 'connect all --no-wait': its result comes once every call is started"),
            OptionSpec("--shell", value: "PATH", help: "time the imsh executable at PATH (an older build, say) instead of this one"),
        ],
        epilogue: """
            Writes a profile of N accounts on the embedded server, starts this imsh in script mode
            (--json) on it, and times: 'connect all' (to its result), 'wait all connected', 'status',
            'disconnect all', 'connect all' again (existing databases) and 'status' again; also the
            shell's VmRSS with every account connected and the events it printed. With --no-wait
            each 'connect all' is 'connect all --no-wait', so its time is the prompt's and the
            'wait' after it holds the rest. --server and
            --threads do not apply: the shell runs its own embedded server and engine.

            exit status: 0 every command succeeded, 1 one did not, 2 usage error
            """)

    /// The commands timed, in order.
    static func script(noWait: Bool) -> [String] {
        let connect = noWait ? "connect all --no-wait" : "connect all"
        return [
            connect, "wait all connected --timeout TIMEOUT", "status", "disconnect all", connect,
            "wait all connected --timeout TIMEOUT", "status",
        ]
    }

    var common: CommonOptions
    var accounts: Int
    var shell: String?
    var noWait: Bool

    init(_ reader: OptionReader) throws(UsageError) {
        try reader.noPositionals()
        common = try CommonOptions(reader)
        accounts = try reader.required("--accounts", try reader.integer("--accounts", in: 1...100_000))
        shell = reader.parsed.value("--shell")
        noWait = reader.parsed.has("--no-wait")
        if let shell, !FileManager.default.isExecutableFile(atPath: shell) {
            throw UsageError("--shell \(shell) is not an executable file")
        }
        if reader.parsed.value("--server") != nil || reader.parsed.value("--threads") != nil {
            throw UsageError("--server and --threads do not apply to bench shell: the shell runs its own embedded server")
        }
    }

    func run(progress: ProgressLine) async throws(BenchError) -> any BenchReport {
        let directory = try BenchDirectory.make(common.data)
        defer { directory.release() }
        let profiles = "\(directory.path)/profiles"
        try Self.writeProfile(accounts: accounts, to: profiles)
        let shell = try ShellChild(executable: self.shell, profiles: profiles, data: "\(directory.path)/shell")
        var report = ShellReport(accounts: accounts)
        let seconds = Int(BenchClock.seconds(common.timeout).rounded(.up))
        for line in Self.script(noWait: noWait) {
            let command = line.replacingOccurrences(of: "TIMEOUT", with: String(seconds))
            do throws(BenchError) {
                let answer = try await progress.during(command, status: { "\(accounts) accounts" }) { () async throws(BenchError) in
                    try await shell.run(command, timeout: common.timeout + .seconds(30))
                }
                report.steps.append(.init(command: command, answer: answer))
                if command.hasPrefix("wait"), report.memory == nil {
                    report.memory = ProcessStatus.of(pid: shell.child.pid)
                }
            } catch {
                report.error = error.description
                break
            }
        }
        await shell.stop()
        return report
    }

    /// `profiles/bench.json`: N accounts of N users on the embedded server, 0600 in a 0700 folder.
    static func writeProfile(accounts: Int, to folder: String) throws(BenchError) {
        var entries: [String] = []
        entries.reserveCapacity(accounts)
        for index in 1...accounts {
            let name = "shell" + String(repeating: "0", count: max(0, 5 - String(index).count)) + String(index)
            entries.append("    \"\(name)\": { \"userId\": \"\(name)\", \"deviceId\": \"\(name)\" }")
        }
        let text = """
            {
              "appKey": "imsh-dev",
              "appSecret": "imsh-dev-secret",
              "server": "embedded",
              "defaults": { "timeout": 0, "heartbeat": 60 },
              "accounts": {
            \(entries.joined(separator: ",\n"))
              }
            }

            """
        let path = "\(folder)/bench.json"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw BenchError("cannot write \(path): \(String(cString: strerror(errno)))") }
            defer { close(descriptor) }
            let bytes = Array(text.utf8)
            guard bytes.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == bytes.count else {
                throw BenchError("cannot write \(path): \(String(cString: strerror(errno)))")
            }
        } catch let error as BenchError {
            throw error
        } catch {
            throw BenchError("cannot create \(folder): \(error.localizedDescription)")
        }
    }
}
