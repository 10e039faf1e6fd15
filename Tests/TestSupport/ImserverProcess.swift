import Foundation
import IMLaunch
import IMProcess
import IMProtocol
import Synchronization

/// The `imserver` executable on a data directory, listening on 127.0.0.1 port 0 with `--json`,
/// ended by a signal. The development app (`imsh-dev`) is served, as without a configuration file.
///
/// `ImserverLauncher` starts it; its standard output stays open for `readLine`, and a server
/// not reaped when this goes is killed.
public final class ImserverProcess: Sendable {
    public static let appKey = "imsh-dev"
    public static let appSecret = "imsh-dev-secret"

    /// The imserver next to the test bundle.
    public static var binary: String { ImserverLauncher.besideThisProgram }

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
        var launcher = ImserverLauncher(
            executable: binary, options: options, mqttPort: port,
            environment: environment.isEmpty ? nil : ProcessInfo.processInfo.environment.merging(environment) { $1 },
            output: .kept(errors: errors))
        // A loaded machine runs several test targets at once: time to start, but not forever.
        launcher.startTimeout = .seconds(120)
        let server = try await launcher.start()
        let output = FileHandle(fileDescriptor: server.output!, closeOnDealloc: true)
        return ImserverProcess(process: server.child, output: output, listening: server.listening, earlier: server.earlier, mqttPort: server.mqttPort)
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
