import Foundation
import TestSupport

/// Resident memory of this process and of the server, sampled during a run, and whether it
/// stayed flat.
///
/// Figures are KiB from /proc/PID/status: `VmRSS` (all resident memory), and for the server
/// also `RssAnon` (its heap, without file pages). The server maps its SQLite file (mmap) and
/// keeps every message for the retention time, so its file pages grow with the data; that is
/// cache, not a leak, and the flatness check of the server looks at its heap.
struct ResidentMemory: Sendable {
    typealias Status = ProcessMemory

    struct Sample: Sendable {
        /// The test process's VmRSS.
        var test: Int
        /// The server's, when one runs, and which of its lives that is (0 first).
        var server: Status?
        var serverLife: Int
    }

    var samples: [Sample] = []
    /// The server just before each SIGKILL, and at the end: the peak of each of its lives.
    var serverLives: [Status] = []

    /// VmRSS and RssAnon of `pid` (nil: this process); nil when /proc does not say.
    static func status(pid: Int32? = nil) -> Status? { ProcessMemory.of(pid: pid) }

    /// Growth of the test process allowed once warmed up: 8 MiB plus a tenth.
    ///
    /// Caches still fill as the databases grow (a few MiB over a CI run); a leak of 3 KiB per
    /// message (6,000 after warm-up in a 180 s run), or of 10 KiB per reconnection (about
    /// 1,700), exceeds it.
    static func testAllowance(over warm: Int) -> Int { 8 * 1024 + warm / 10 }

    /// Growth of the server's heap allowed: 4 MiB plus a quarter (its heap is a few MiB).
    ///
    /// Within a life (about 750 messages after its first sample), a leak of 5 KiB per message
    /// exceeds it.
    static func serverAllowance(over start: Int) -> Int { 4 * 1024 + start / 4 }

    /// What the server's heap may gain per message it keeps: SQLite's page cache holds the
    /// index pages its inserts touch (random client message ids), up to the server's
    /// `cache_size` of 64 MiB; a 180 s run measured about 200 bytes per message.
    static let serverCachePerMessage = 512

    /// Whether the test process's VmRSS stopped growing after the first third of the run
    /// (warm-up: 200 sessions' SQLite files, buffers and allocator arenas reach their size).
    func testProcessIsFlat() -> (flat: Bool, warm: Int, late: Int) {
        guard samples.count >= 3, samples.allSatisfy({ $0.test > 0 }) else { return (false, 0, 0) }
        let warmCount = max(1, samples.count / 3)
        let warm = samples.prefix(warmCount).map(\.test).max() ?? 0
        let late = samples.dropFirst(warmCount).map(\.test).max() ?? warm
        return (late <= warm + Self.testAllowance(over: warm), warm, late)
    }

    /// Whether the server's heap stayed flat within each life (from its first sample to its
    /// end) and from its first life to its last (each life serves the same load for the same
    /// time), beyond the cache of the `messagesKept` messages. Returns what grew too much.
    func serverProblems(messagesKept: Int) -> [String] {
        guard let first = serverLives.first?.anonymous, let last = serverLives.last?.anonymous, first > 0 else {
            return ["the server's memory was not sampled"]
        }
        var problems: [String] = []
        if last > first + Self.serverAllowance(over: first) + messagesKept * Self.serverCachePerMessage / 1024 {
            problems.append("heap \(first) KiB at the end of its first life, \(last) KiB at the end of its last")
        }
        let lives = Dictionary(grouping: samples.filter { $0.server != nil }, by: \.serverLife)
        for (life, samples) in lives.sorted(by: { $0.key < $1.key }) {
            guard let start = samples.first?.server?.anonymous, let peak = samples.compactMap(\.server?.anonymous).max(),
                  peak > start + Self.serverAllowance(over: start) else { continue }
            problems.append("heap of life \(life) grew from \(start) KiB to \(peak) KiB")
        }
        return problems
    }

    /// `12.3` (MiB) for KiB.
    static func mebibytes(_ kilobytes: Int) -> String { String(format: "%.1f", Double(kilobytes) / 1024) }
}
