import Foundation
import IMProcess
import Synchronization
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// An interrupted bench stops the server it spawned and removes its temporary directory, then
/// exits as the signal would have.
@Suite(.timeLimit(.minutes(2)))
struct BenchInterruptionTests {
    /// The children of `pid`, from /proc.
    private static func children(of pid: pid_t) -> [pid_t] {
        (ProcFile.read("/proc/\(pid)/task/\(pid)/children") ?? "").split(separator: " ").compactMap { pid_t($0) }
    }

    private static func arguments(of pid: pid_t) -> [String] {
        (ProcFile.read("/proc/\(pid)/cmdline") ?? "").split(separator: "\0").map(String.init)
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func theSpawnedServerStopsAndTheTemporaryDirectoryGoes(signal: Int32) async throws {
        let bench = try ChildProcess.spawn(
            BenchProcess.imsh, ["bench", "connect", "--accounts", "3", "--server", "spawn", "--hold", "120"],
            stdin: .null, stdout: .null, stderr: .pipe)
        // The spawned imserver, and the bench's directory from its --data argument.
        let spawned = Mutex<(server: pid_t, data: String)?>(nil)
        let found = await eventually(within: .seconds(30)) {
            for child in Self.children(of: bench.pid) {
                let arguments = Self.arguments(of: child)
                guard let index = arguments.firstIndex(of: "--data"), index + 1 < arguments.count else { continue }
                spawned.withLock { $0 = (child, String(arguments[index + 1].dropLast("/server".count))) }
                return FileManager.default.fileExists(atPath: arguments[index + 1] + "/server.sqlite")
            }
            return false
        }
        guard found, let (server, data) = spawned.withLock({ $0 }) else {
            bench.signal(SIGKILL)
            _ = bench.wait()
            Issue.record("the bench never showed its spawned server")
            return
        }
        #expect(data.contains("imsh-bench-"), "a temporary directory: \(data)")
        bench.signal(signal)
        #expect(await eventually(within: .seconds(20)) { !ChildProcess.isRunning(bench.pid) })
        let ending = bench.wait()
        #expect(ending == .exited(128 + signal))
        #expect(!ChildProcess.isRunning(server), "the server stopped with the bench")
        #expect(!FileManager.default.fileExists(atPath: data), "\(data) was removed")
        var said: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while let descriptor = bench.stderr {
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 { break }
            said += buffer[..<count]
        }
        let name = signal == SIGTERM ? "SIGTERM" : "SIGINT"
        #expect(String(decoding: said, as: UTF8.self).contains("imsh bench connect: interrupted by \(name)"))
    }
}
