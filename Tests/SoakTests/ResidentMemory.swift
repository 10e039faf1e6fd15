import Foundation

/// Resident memory of this process and of the server, sampled during a run, and whether it
/// stayed flat.
///
/// Figures are KiB from /proc/PID/status: `VmRSS` (all resident memory), and for the server
/// also `RssAnon` (its heap, without file pages). The server maps its SQLite file (mmap) and
/// keeps every message for the retention time, so its file pages grow with the data; that is
/// cache, not a leak, and the flatness check of the server looks at its heap.
struct ResidentMemory: Sendable {
    /// What /proc says of one process.
    struct Status: Sendable {
        var resident: Int
        var anonymous: Int
    }

    struct Sample: Sendable {
        /// The test process's VmRSS.
        var test: Int
        /// The server's, when one runs.
        var server: Status?
    }

    var samples: [Sample] = []
    /// The server just before each SIGKILL, and at the end: the peak of each of its lives.
    var serverLives: [Status] = []

    /// VmRSS and RssAnon of `pid` (nil: this process); nil when /proc does not say.
    static func status(pid: Int32? = nil) -> Status? {
        let path = pid.map { "/proc/\($0)/status" } ?? "/proc/self/status"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        var fields: [Substring: Int] = [:]
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            if words.count >= 2, let value = Int(words[1]) { fields[words[0]] = value }
        }
        guard let resident = fields["VmRSS:"], let anonymous = fields["RssAnon:"] else { return nil }
        return Status(resident: resident, anonymous: anonymous)
    }

    /// Growth allowed once warmed up: 8 MiB plus a tenth of the warm figure.
    ///
    /// Caches still fill as the databases grow (a few MiB over a CI run); a leak of 3 KiB per
    /// message, or of 10 KiB per reconnection (about 1,700 in a 180 s run), exceeds it.
    static func allowance(over warm: Int) -> Int { 8 * 1024 + warm / 10 }

    /// Whether the test process's VmRSS stopped growing after the first third of the run
    /// (warm-up: 200 sessions' SQLite files, buffers and allocator arenas reach their size).
    func testProcessIsFlat() -> (flat: Bool, warm: Int, late: Int) {
        let warmCount = max(1, samples.count / 3)
        let warm = samples.prefix(warmCount).map(\.test).max() ?? 0
        let late = samples.dropFirst(warmCount).map(\.test).max() ?? warm
        return (late <= warm + Self.allowance(over: warm), warm, late)
    }

    /// Whether the server's heap at the end of its last life is within the allowance of its
    /// first life's: each life serves the same load for the same time.
    func serverIsFlat() -> (flat: Bool, first: Int, last: Int) {
        guard let first = serverLives.first?.anonymous, let last = serverLives.last?.anonymous else { return (true, 0, 0) }
        return (last <= first + Self.allowance(over: first), first, last)
    }

    /// `12.3` (MiB) for KiB.
    static func mebibytes(_ kilobytes: Int) -> String { String(format: "%.1f", Double(kilobytes) / 1024) }
}
