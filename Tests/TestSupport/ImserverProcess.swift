import Foundation
import IMProcess
import IMProtocol
import Synchronization

/// The `imserver` executable on a data directory, listening on 127.0.0.1 port 0 with `--json`,
/// ended by a signal. The development app (`imsh-dev`) is served, as without a configuration file.
public final class ImserverProcess: Sendable {
    public static let appKey = "imsh-dev"
    public static let appSecret = "imsh-dev-secret"

    public static var binary: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("imserver").path
    }

    public let process: ChildProcess
    /// The line imserver printed once it listened: `{"event":"listening","mqtt":…,"api":…}`, as an object.
    public let listening: [String: String]
    /// The lines it printed before that one (an `upgrading` event).
    public let earlier: [String]
    public let mqttPort: UInt16
    private let output: FileHandle
    private let reaped = Mutex(false)

    private init(process: ChildProcess, output: FileHandle, listening: [String: String], earlier: [String], mqttPort: UInt16) {
        self.process = process
        self.output = output
        self.listening = listening
        self.earlier = earlier
        self.mqttPort = mqttPort
    }

    /// Starts imserver on `directory` (with `extra` options, and `environment` added to ours)
    /// and waits for it to say where it listens. Its standard error goes to the file `errors`, if given.
    public static func start(
        dataDirectory directory: String, extra: [String] = [], environment: [String: String] = [:], errors: String? = nil
    ) async throws -> ImserverProcess {
        try await start(["--data", directory] + extra, environment: environment, errors: errors)
    }

    /// Starts imserver as node `nodeName` on the PostgreSQL database `storeURL`, its MQTT
    /// listener on `port` (0 picks one: a restarted node passes its old one).
    public static func start(storeURL: String, nodeName: String, port: UInt16 = 0, extra: [String] = []) async throws -> ImserverProcess {
        try await start(["--store", storeURL, "--node-name", nodeName] + extra, port: port)
    }

    private static func start(
        _ options: [String], port: UInt16 = 0, environment: [String: String] = [:], errors: String? = nil
    ) async throws -> ImserverProcess {
        let errorFD = errors.map { open($0, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600) } ?? -1
        defer { if errorFD >= 0 { close(errorFD) } }
        let process = try ChildProcess.spawn(
            binary, ["--listen", "127.0.0.1:\(port)", "--api", "127.0.0.1:0", "--json"] + options,
            environment: environment.isEmpty ? nil : ProcessInfo.processInfo.environment.merging(environment) { $1 },
            stderr: errorFD >= 0 ? .descriptor(errorFD) : .null)
        let output = FileHandle(fileDescriptor: process.stdout!, closeOnDealloc: true)
        var earlier: [String] = []
        var line = try await offPool { readLine(output) }
        while let seen = line, !seen.contains(#""event":"listening""#), earlier.count < 4 {
            earlier.append(seen)
            line = try await offPool { readLine(output) }
        }
        guard let line, let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String],
              let port = event["mqtt"].flatMap({ $0.split(separator: ":").last }).flatMap({ UInt16($0) })
        else {
            process.signal(SIGKILL)
            _ = process.wait()
            throw TestFailure("imserver did not say where it listens: \(line ?? "end of output")")
        }
        return ImserverProcess(process: process, output: output, listening: event, earlier: earlier, mqttPort: port)
    }

    /// A token of the development app for `user`.
    public static func token(_ user: String) throws -> String {
        try Token.issue(appKey: appKey, secret: appSecret, userID: user, issuedAt: Int64(Date().timeIntervalSince1970 * 1000))
    }

    /// The next line of standard output, without its newline; nil at end of file. Blocks.
    public func readLine() -> String? { Self.readLine(output) }

    /// Sends `signal` and waits for the process to end.
    public func stop(_ signal: Int32) async throws -> ChildProcess.Termination {
        process.signal(signal)
        return try await waitForExit()
    }

    /// Waits for the process to end.
    public func waitForExit() async throws -> ChildProcess.Termination {
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
