import Foundation

/// Resident memory (VmRSS in /proc/PID/status) of this process and the server, sampled during a run.
struct ResidentMemory: Sendable {
    struct Sample: Sendable {
        /// Seconds since the traffic started.
        var second: Int
        /// KiB resident in the test process.
        var test: Int
        /// KiB resident in the server process running then (nil while none runs).
        var server: Int?
    }

    var samples: [Sample] = []
    /// The server's resident memory just before each SIGKILL: its peak of that life.
    var serverBeforeKill: [Int] = []

    /// KiB resident for `pid` (nil: this process); nil when /proc does not say.
    static func kilobytes(pid: Int32? = nil) -> Int? {
        let path = pid.map { "/proc/\($0)/status" } ?? "/proc/self/status"
        guard let status = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        }
        return nil
    }

    /// Whether the test process's memory stopped growing once warmed up.
    ///
    /// The first third of the run is warm-up: 200 SQLite files, the engine's and proxy's
    /// buffers and the allocator's arenas reach their working size. After it, the largest
    /// sample may exceed the warm-up's largest by at most a quarter plus 32 MiB; a leak of
    /// even 1 KiB per message or per reconnection (thousands of each) breaks that over a
    /// CI run, while allocator noise stays well inside it.
    func testProcessIsFlat() -> (flat: Bool, warm: Int, late: Int) {
        let warmCount = max(1, samples.count / 3)
        let warm = samples.prefix(warmCount).map(\.test).max() ?? 0
        let late = samples.dropFirst(warmCount).map(\.test).max() ?? warm
        return (late <= warm + warm / 4 + 32 * 1024, warm, late)
    }

    /// Whether the server's peak did not grow from one life to the next.
    ///
    /// Each life lasts the same time under the same load, so its peak should not drift: the
    /// last life's peak may exceed the first's by at most a quarter plus 16 MiB.
    func serverIsFlat() -> (flat: Bool, first: Int, last: Int) {
        guard let first = serverBeforeKill.first, let last = serverBeforeKill.last else { return (true, 0, 0) }
        return (last <= first + first / 4 + 16 * 1024, first, last)
    }

    /// `12.3 MiB` for KiB.
    static func text(_ kilobytes: Int) -> String { String(format: "%.1f MiB", Double(kilobytes) / 1024) }
}
