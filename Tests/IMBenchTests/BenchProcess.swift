import Foundation
import IMJSON
import IMProcess
import Testing

/// The built `imsh` binary running `imsh bench ...`, with a time limit.
enum BenchProcess {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String

        /// The one JSON object a `--json` bench prints.
        func result(sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> JSONObject {
            let lines = stdout.split(separator: "\n")
            #expect(lines.count == 1, "one line of JSON: \(stdout)", sourceLocation: sourceLocation)
            return try #require((try JSONValue(parsing: String(lines.first ?? ""))).objectValue, sourceLocation: sourceLocation)
        }
    }

    /// The folder of the built products: the test bundle sits beside them.
    static var products: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().path
    }

    static var imsh: String { products + "/imsh" }

    /// Runs `imsh bench ARGUMENTS` (or `executable` with `arguments` as they are) to its end, on
    /// a thread of its own; kills it at `timeout`.
    static func run(
        _ arguments: [String], executable: String? = nil, timeout: Duration = .seconds(90),
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) async throws -> Run {
        let program = executable ?? imsh
        let line = executable == nil ? ["bench"] + arguments : arguments
        let output = try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try ChildProcess.run(program, line, timeout: timeout) })
            }
        }
        let run = Run(status: output.termination.status, stdout: String(decoding: output.stdout, as: UTF8.self),
                      stderr: String(decoding: output.stderr, as: UTF8.self))
        #expect(!output.timedOut, "\(line) did not end within \(timeout): \(run.stdout) \(run.stderr)", sourceLocation: sourceLocation)
        return run
    }

    /// Runs `imsh bench ARGUMENTS` with both open-file limits at 64 and, where it runs as root,
    /// no CAP_SYS_RESOURCE to lift them.
    static func runWithFewDescriptors(_ arguments: [String]) async throws -> Run {
        let dropCapability = FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
            ? "setpriv --bounding-set -sys_resource " : ""
        let script = "ulimit -n 64 && exec \(dropCapability)\"$0\" bench \(arguments.joined(separator: " "))"
        return try await run(["-c", script, imsh], executable: "/bin/sh", timeout: .seconds(30))
    }
}

/// Waiting for a child on a thread of its own (waitpid blocks).
enum BlockingWait {
    static func exit(of child: ChildProcess) async -> ChildProcess.Termination {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: child.wait()) }
        }
    }
}
