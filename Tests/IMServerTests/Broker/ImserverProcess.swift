import Foundation
import IMProcess
import IMProtocol
import Synchronization
import TestSupport

/// The `imserver` executable on a data directory, listening on 127.0.0.1 port 0 with `--json`,
/// ended by a signal. The development app (`imsh-dev`) is served, as without a configuration file.
final class ImserverProcess: Sendable {
    static let appKey = "imsh-dev"
    static let appSecret = "imsh-dev-secret"

    static var binary: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("imserver").path
    }

    let process: ChildProcess
    /// The first line imserver printed: `{"event":"listening","mqtt":…,"api":…}`, as an object.
    let listening: [String: String]
    let mqttPort: UInt16
    private let output: FileHandle
    private let reaped = Mutex(false)

    private init(process: ChildProcess, output: FileHandle, listening: [String: String], mqttPort: UInt16) {
        self.process = process
        self.output = output
        self.listening = listening
        self.mqttPort = mqttPort
    }

    /// Starts imserver on `directory` (with `extra` options) and waits for it to say where it listens.
    static func start(dataDirectory directory: String, extra: [String] = []) async throws -> ImserverProcess {
        let process = try ChildProcess.spawn(
            binary, ["--listen", "127.0.0.1:0", "--api", "127.0.0.1:0", "--data", directory, "--json"] + extra, stderr: .null)
        let output = FileHandle(fileDescriptor: process.stdout!, closeOnDealloc: true)
        let line = try await offPool { readLine(output) }
        guard let line, let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String],
              let port = event["mqtt"].flatMap({ $0.split(separator: ":").last }).flatMap({ UInt16($0) })
        else {
            process.signal(SIGKILL)
            _ = process.wait()
            throw ImserverFailure("imserver did not say where it listens: \(line ?? "end of output")")
        }
        return ImserverProcess(process: process, output: output, listening: event, mqttPort: port)
    }

    /// A token of the development app for `user`.
    static func token(_ user: String) throws -> String {
        try Token.issue(appKey: appKey, secret: appSecret, userID: user, issuedAt: Int64(Date().timeIntervalSince1970 * 1000))
    }

    /// The next line of standard output, without its newline; nil at end of file. Blocks.
    func readLine() -> String? { Self.readLine(output) }

    /// Sends `signal` and waits for the process to end.
    func stop(_ signal: Int32) async throws -> ChildProcess.Termination {
        process.signal(signal)
        return try await waitForExit()
    }

    /// Waits for the process to end.
    func waitForExit() async throws -> ChildProcess.Termination {
        let process = self.process
        let termination = try await offPool { process.wait() }
        reaped.withLock { $0 = true }
        return termination
    }

    deinit {
        if !reaped.withLock({ $0 }) {
            process.signal(SIGKILL)
            _ = process.wait()
        }
    }

    private static func readLine(_ handle: FileHandle) -> String? {
        var bytes: [UInt8] = []
        while true {
            let byte = handle.readData(ofLength: 1)
            guard let first = byte.first else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if first == 0x0A { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(first)
        }
    }
}

/// imserver did not start as expected.
struct ImserverFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
