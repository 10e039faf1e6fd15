import Dispatch
import Foundation
import IMLaunch
import IMProcess
import IMThreads
import IMTransport

/// One life of the `imserver` executable on a data directory: started on free ports with
/// `--json`, killed with SIGKILL, or stopped with SIGTERM at the end.
///
/// The server's output goes to files in the run's directory (no pipe can fill up and stall
/// it); `ImserverLauncher` reads its listening line back from there.
final class ServerProcess: Sendable {
    let process: ChildProcess
    let mqttPort: UInt16
    /// Where its standard output and error went.
    let logPath: String

    private init(process: ChildProcess, mqttPort: UInt16, logPath: String) {
        self.process = process
        self.mqttPort = mqttPort
        self.logPath = logPath
    }

    /// Starts a server on `dataDirectory`; returns once it listens (within `limit`).
    static func start(dataDirectory: String, life: Int, limit: Duration = .seconds(30)) async throws -> ServerProcess {
        let logPath = "\(dataDirectory)/../imserver-\(life).log"
        var launcher = ImserverLauncher(options: ["--data", dataDirectory], output: .log(logPath))
        launcher.startTimeout = limit
        do {
            let server = try await launcher.start()
            return ServerProcess(process: server.child, mqttPort: server.mqttPort, logPath: logPath)
        } catch {
            throw SoakFailure("\(error)")
        }
    }

    /// How the process ended, if it has (reaps it); nil while it runs.
    static func exitStatus(of process: ChildProcess) -> Int32? {
        var status: Int32 = 0
        let result = waitpid(process.pid, &status, WNOHANG)
        return result == process.pid ? status : nil
    }

    /// Whether the server still runs; when it does not, it died on its own: a crash.
    var isRunning: Bool { Self.exitStatus(of: process) == nil }

    /// Resident memory, from /proc.
    var memory: ResidentMemory.Status? { ResidentMemory.status(pid: process.pid) }

    /// SIGKILL, and waits for it to be gone; `.signaled(SIGKILL)` unless it ended otherwise first.
    @discardableResult
    func kill() async -> ChildProcess.Termination {
        process.signal(SIGKILL)
        return await Self.waitOffPool(process)
    }

    /// SIGTERM (a graceful stop) and waits up to `limit` for it; returns its termination, nil when it hung.
    func stop(within limit: Duration = .seconds(15)) async -> ChildProcess.Termination? {
        process.signal(SIGTERM)
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if let status = Self.exitStatus(of: process) {
                return status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signaled(status & 0x7F)
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        await kill()
        return nil
    }

    /// The end of the server's log, for failure messages.
    static func tail(of path: String) -> String {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return String(text.suffix(2_000))
    }

    /// `waitpid` blocks: on a thread of its own, not the cooperative pool.
    private static func waitOffPool(_ process: ChildProcess) async -> ChildProcess.Termination {
        await BlockingCall.run { process.wait() }
    }
}

/// Why the soak could not go on, with what a person needs to look into it.
struct SoakFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
