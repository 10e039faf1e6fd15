import IMJSON
import IMProcess
import IMThreads
#if canImport(Glibc)
import Glibc
#endif

/// How to start the `imserver` executable and wait until it says where it listens: the one way
/// the benches, the chaos run's nodes and the tests start it.
///
/// imserver runs with `--listen 127.0.0.1:PORT --api 127.0.0.1:0 --json` and the caller's
/// options; once its listeners are open it prints `{"event":"listening","mqtt":…,"api":…}`.
/// Waiting for that line blocks (on a pipe, or on a log file that grows), so `start` does it on
/// a thread of its own, off Swift's cooperative pool.
public struct ImserverLauncher: Sendable {
    /// Where imserver's standard output and error go.
    public enum Output: Sendable {
        /// Both on pipes, read until the listening line and closed then: imserver ignores SIGPIPE
        /// and says nothing more until it stops. What it wrote on standard error is in a failed start's error.
        case closedOnceListening
        /// Standard output stays on a pipe for the caller to read on (`LaunchedImserver.output`);
        /// standard error is appended to the file at `errors`, or discarded.
        case kept(errors: String?)
        /// Both into the file at this path, created or truncated, where the listening line is read
        /// back: no pipe can fill and stall the server, and what it said stays after it ends.
        case log(String)
    }

    public var executable: String
    /// What follows the listening options: the store (`--data DIR`, or `--store URL --node-name N`) and any others.
    public var options: [String]
    /// The MQTT port; 0 picks a free one (a server started again passes its old one, which its clients know).
    public var mqttPort: UInt16
    /// The environment of the server; nil: ours.
    public var environment: [String: String]?
    public var output: Output
    /// How long the server has to say it listens.
    public var startTimeout: Duration = .seconds(30)
    /// How long it has once it said it upgrades its data directory's database (seconds per million messages).
    public var upgradeTimeout: Duration = .seconds(900)

    public init(
        executable: String = besideThisProgram, options: [String], mqttPort: UInt16 = 0, environment: [String: String]? = nil,
        output: Output
    ) {
        self.executable = executable
        self.options = options
        self.mqttPort = mqttPort
        self.environment = environment
        self.output = output
    }

    /// The imserver in the folder of this process's executable (imsh's, or the test bundle's).
    public static var besideThisProgram: String {
        let program = ChildProcess.ownExecutable
        let folder = program.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return (folder.isEmpty && !program.hasPrefix("/") ? "." : folder) + "/imserver"
    }

    /// Starts imserver and returns once it listens; a server that ends first, or does not say
    /// it listens in time, is killed and the error says what it wrote.
    public func start() async throws(ImserverLaunchError) -> LaunchedImserver {
        let launcher = self
        return try await BlockingCall.run { Result { () throws(ImserverLaunchError) in try launcher.startBlocking() } }.get()
    }

    private func startBlocking() throws(ImserverLaunchError) -> LaunchedImserver {
        let arguments = ["--listen", "127.0.0.1:\(mqttPort)", "--api", "127.0.0.1:0", "--json"] + options
        var file: Int32 = -1
        defer { if file >= 0 { close(file) } }
        let streams: (stdout: ChildProcess.Stream, stderr: ChildProcess.Stream)
        switch output {
        case .closedOnceListening:
            streams = (.pipe, .pipe)
        case .kept(let errors):
            if let errors { file = try Self.open(errors, O_APPEND) }
            streams = (.pipe, file >= 0 ? .descriptor(file) : .null)
        case .log(let path):
            file = try Self.open(path, O_TRUNC)
            streams = (.descriptor(file), .descriptor(file))
        }
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(executable, arguments, environment: environment, stdin: .null, stdout: streams.stdout, stderr: streams.stderr)
        } catch {
            throw ImserverLaunchError(description: "\(error)")
        }
        var lines = ServerLines(output: output, child: child)
        var listening = false
        defer { lines.close(listening: listening) }
        var earlier: [String] = []
        var deadline = ContinuousClock.now + startTimeout
        while let line = lines.next(until: deadline) {
            guard let event = (try? JSONValue(parsing: line))?.objectValue else {
                earlier.append(line)
                continue
            }
            if event["event"] == "upgrading" { deadline = max(deadline, ContinuousClock.now + upgradeTimeout) }
            guard event["event"] == "listening" else {
                earlier.append(line)
                continue
            }
            let members = event.members.reduce(into: [String: String]()) { $0[$1.key] = $1.value.stringValue }
            if let mqtt = members["mqtt"].flatMap(Self.port(of:)), let api = members["api"].flatMap(Self.port(of:)) {
                listening = true
                let output: Int32? = if case .kept = self.output { child.stdout } else { nil }
                return LaunchedImserver(child: child, listening: members, earlier: earlier, mqttPort: mqtt, apiPort: api, output: output)
            }
            earlier.append(line)
            break
        }
        let ended = child.hasEnded
        child.signal(SIGKILL)
        let ending = child.wait()
        lines.drain()
        let said = lines.said(earlier: earlier)
        throw ImserverLaunchError(description: ended
            ? "imserver ended (\(ending)) before it listened: \(said)"
            : "imserver did not say it listens within \(startTimeout): \(said)")
    }

    /// Opens `path` for imserver's output, `flag` O_APPEND or O_TRUNC.
    private static func open(_ path: String, _ flag: Int32) throws(ImserverLaunchError) -> Int32 {
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_CLOEXEC | flag, 0o600)
        guard descriptor >= 0 else { throw ImserverLaunchError(description: "cannot open \(path): \(String(cString: strerror(errno)))") }
        return descriptor
    }

    private static func port(of address: String) -> UInt16? {
        address.split(separator: ":").last.flatMap { UInt16($0) }
    }
}
