import Foundation
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
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result {
                    try runBlocking(arguments, home: home, directory: directory, environment: environment, stdin: stdin, timeout: timeout)
                })
            }
        }
    }

    private static func runBlocking(
        _ arguments: [String], home: String, directory: String?, environment: [String: String], stdin: String, timeout: Duration
    ) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        var variables = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": home, "LANG": "C.UTF-8"]
        variables.merge(environment) { $1 }
        process.environment = variables
        process.currentDirectoryURL = URL(fileURLWithPath: directory ?? home)
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        // Standard input is written before the child starts (it fits the pipe's buffer), so a
        // child that exits without reading cannot cause SIGPIPE here.
        precondition(stdin.utf8.count < 16_384, "keep test input within the pipe's buffer")
        writeAll(Array(stdin.utf8), to: input.fileHandleForWriting.fileDescriptor)
        try input.fileHandleForWriting.close()
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let collected = CollectedOutput(output, errors)
        let (seconds, attoseconds) = timeout.components
        let timedOut = exited.wait(timeout: .now() + .milliseconds(Int(seconds * 1000 + attoseconds / 1_000_000_000_000_000))) == .timedOut
        if timedOut {
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
        }
        let (stdout, stderr) = collected.wait()
        if timedOut { Issue.record("imsh \(arguments) did not finish within \(timeout)\nstdout: \(stdout)\nstderr: \(stderr)") }
        return Run(status: process.terminationStatus, stdout: stdout, stderr: stderr, timedOut: timedOut)
    }
}

private func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
    var rest = bytes[...]
    while !rest.isEmpty {
        let count = rest.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if count > 0 {
            rest = rest.dropFirst(count)
        } else if count < 0, errno == EINTR {
            continue
        } else {
            return
        }
    }
}

/// Reads a child's standard output and error to their end on threads of their own, so that
/// neither pipe fills up and stalls the child. Plain read(2) with EINTR retried: Foundation's
/// readDataToEndOfFile traps on an interrupted read, and child processes mean SIGCHLD.
private final class CollectedOutput: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let texts = Mutex<[Int: String]>([:])

    init(_ output: Pipe, _ errors: Pipe) {
        for (index, pipe) in [output, errors].enumerated() {
            let descriptor = pipe.fileHandleForReading.fileDescriptor
            Thread.detachNewThread { [self] in
                let bytes = Self.readAll(descriptor)
                texts.withLock { $0[index] = String(decoding: bytes, as: UTF8.self) }
                done.signal()
            }
        }
    }

    private static func readAll(_ descriptor: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count > 0 {
                bytes += buffer[..<count]
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return bytes
            }
        }
    }

    func wait() -> (String, String) {
        done.wait()
        done.wait()
        return texts.withLock { ($0[0] ?? "", $0[1] ?? "") }
    }
}
