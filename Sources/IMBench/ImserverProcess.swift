import Foundation
import IMJSON
import IMProcess
import IMThreads
import IMTransport

/// One run of the `imserver` executable that sits next to imsh, started with `--json`.
///
/// Starting waits for its `listening` line (reading blocks: that happens on a thread of its
/// own, off Swift's cooperative pool). Its output pipes are closed after that line: imserver
/// ignores SIGPIPE, and prints nothing else until it stops.
package struct ImserverProcess: Sendable {
    let child: ChildProcess
    let mqttPort: UInt16
    let apiPort: UInt16

    /// How long the server has to print its listening line.
    static let startTimeout: Duration = .seconds(30)
    /// How long an upgrade of the data directory's database may take, once announced.
    static let upgradeTimeout: Duration = .seconds(900)

    /// The imserver binary in the folder of this process's executable.
    package static func executable() throws(BenchError) -> String {
        let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let path = URL(fileURLWithPath: target).deletingLastPathComponent().appendingPathComponent("imserver").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw BenchError("--server spawn needs the imserver executable next to imsh, at \(path); build it (swift build --product imserver) or use --server embedded")
        }
        return path
    }

    /// Starts imserver with MQTT on 127.0.0.1:`mqttPort` (0 picks one), the API on a free port.
    static func start(mqttPort: UInt16, dataDirectory: String) async throws(BenchError) -> ImserverProcess {
        let executable = try executable()
        let arguments = ["--listen", "127.0.0.1:\(mqttPort)", "--api", "127.0.0.1:0", "--data", dataDirectory, "--json"]
        let result = await BlockingCall.run { Result { () throws(BenchError) in try startBlocking(executable, arguments) } }
        return try result.get()
    }

    private static func startBlocking(_ executable: String, _ arguments: [String]) throws(BenchError) -> ImserverProcess {
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(executable, arguments, stdin: .null, stdout: .pipe, stderr: .pipe)
        } catch {
            throw BenchError("\(error)")
        }
        var reader = LineReader(stdout: child.stdout ?? -1, stderr: child.stderr ?? -1)
        var line = reader.nextLine(within: startTimeout)
        // A data directory of an older imserver is brought up to date first, which it says: the
        // wait is then the upgrade's (seconds per million messages).
        while let said = line, (try? JSONValue(parsing: said))?.objectValue?["event"] == "upgrading" {
            line = reader.nextLine(within: upgradeTimeout)
        }
        reader.close()
        guard let line, let event = (try? JSONValue(parsing: line))?.objectValue, event["event"] == "listening",
              let mqtt = event["mqtt"]?.stringValue.flatMap(port(of:)), let api = event["api"]?.stringValue.flatMap(port(of:))
        else {
            child.signal(SIGKILL)
            let ending = child.wait()
            let said = reader.errors.isEmpty ? (line ?? "nothing") : reader.errors
            throw BenchError("imserver did not start (\(ending)): \(said.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        return ImserverProcess(child: child, mqttPort: mqtt, apiPort: api)
    }

    private static func port(of address: String) -> UInt16? {
        address.split(separator: ":").last.flatMap { UInt16($0) }
    }

    /// SIGKILL, then waits for the process to be gone.
    func kill() async {
        await stop(signal: SIGKILL)
    }

    /// Sends `signal` and waits for the process to end (on a thread of its own: waiting blocks).
    func stop(signal: Int32) async {
        let child = self.child
        child.signal(signal)
        _ = await BlockingCall.run { child.wait() }
    }
}
