import Foundation
import IMProcess
import IMThreads
import IMTransport
import Synchronization
import IMJSON
import Testing

/// The built `imsh` binary, run as a child process with a clean environment and a time limit.
struct ImshProcess {
    /// What a finished run left behind.
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Whether the time limit ran out (the process was then killed).
        var timedOut: Bool

        var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }

        /// Every line of standard output as a JSON object (the `--json` contract).
        func jsonObjects(sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [JSONObject] {
            stdoutLines.compactMap { line in
                guard let object = (try? JSONValue(parsing: line))?.objectValue else {
                    Issue.record("not one JSON object: \(line)", sourceLocation: sourceLocation)
                    return nil
                }
                return object
            }
        }

        /// The `result` objects, in order.
        func results(sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [JSONObject] {
            jsonObjects(sourceLocation: sourceLocation).filter { $0["type"] == "result" }
        }

        /// The status `event` objects, in order.
        func statusEvents(sourceLocation: Testing.SourceLocation = #_sourceLocation) -> [JSONObject] {
            jsonObjects(sourceLocation: sourceLocation).filter { $0["type"] == "event" && $0["event"] == "status" }
        }
    }

    /// The directory the test bundle runs from, which holds the built executables.
    static var binary: String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = bundle.deletingLastPathComponent()
        // On Linux the bundle is a plain executable; on other systems the binary sits above `.xctest`.
        while directory.path.contains(".xctest") { directory = directory.deletingLastPathComponent() }
        return directory.appendingPathComponent("imsh").path
    }

    /// Runs imsh with `arguments`, in `directory`, with `environment` over a minimal one whose
    /// HOME is `home` (so no default location of the user's is touched).
    ///
    /// The waiting happens on a thread of its own: a test that runs a server in its process
    /// needs the cooperative pool free to serve imsh's requests.
    static func run(
        _ arguments: [String], home: String, directory: String? = nil, environment: [String: String] = [:],
        stdin: String = "", timeout: Duration = .seconds(60)
    ) async throws -> Run {
        try await BlockingCall.run {
            try runBlocking(arguments, home: home, directory: directory, environment: environment, stdin: stdin, timeout: timeout)
        }
    }

    /// A minimal environment whose HOME is `home`, with `extra` over it.
    static func environment(home: String, _ extra: [String: String] = [:]) -> [String: String] {
        var variables = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8"]
        variables.merge(extra) { $1 }
        return variables
    }

    private static func runBlocking(
        _ arguments: [String], home: String, directory: String?, environment: [String: String], stdin: String, timeout: Duration
    ) throws -> Run {
        let output = try ChildProcess.run(
            binary, arguments, environment: Self.environment(home: home, environment), directory: directory ?? home,
            input: Array(stdin.utf8), timeout: timeout)
        let stdout = String(decoding: output.stdout, as: UTF8.self), stderr = String(decoding: output.stderr, as: UTF8.self)
        if output.timedOut { Issue.record("imsh \(arguments) did not finish within \(timeout)\nstdout: \(stdout)\nstderr: \(stderr)") }
        return Run(status: output.termination.status, stdout: stdout, stderr: stderr, timedOut: output.timedOut)
    }
}
