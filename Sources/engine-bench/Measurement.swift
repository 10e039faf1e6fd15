import Foundation
import Synchronization

/// Wall-clock timing and the benchmark's report lines.
enum Measurement {
    static func time(_ body: () async throws -> Void) async throws -> Duration {
        let start = ContinuousClock.now
        try await body()
        return ContinuousClock.now - start
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func report(_ name: String, count: Int, unit: String, _ duration: Duration) {
        let seconds = seconds(duration)
        let rate = seconds > 0 ? Double(count) / seconds : 0
        let label = name.padding(toLength: 8, withPad: " ", startingAt: 0)
        print(label + String(format: "%7d ", count) + unit + String(format: " in %.3f s: %.0f ", seconds, rate) + unit + "/s")
    }
}

/// The process's resident memory, as the kernel counts it (`VmRSS` in /proc/self/status).
enum ResidentMemory {
    /// Kilobytes resident now; nil where /proc is not readable.
    static func current() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        }
        return nil
    }

    static func report(before: Int?, after: Int?, sessions: Int) {
        guard let before, let after else { return print("memory  VmRSS not readable") }
        let perSession = Double(after - before) / Double(max(1, sessions))
        print(String(format: "memory  VmRSS %.1f MiB before the sessions, %.1f MiB with all connected: %.1f KiB per session",
                     Double(before) / 1024, Double(after) / 1024, perSession))
    }
}

/// The moment the last of `count` events happened, measured from the milestone's creation.
final class Milestone: Sendable {
    private let start = ContinuousClock.now
    private let remaining: Atomic<Int>
    private let last = Mutex<Duration?>(nil)

    init(count: Int) { remaining = Atomic(count) }

    /// Records one event; the last one sets `reachedAfter`.
    func reach() {
        if remaining.subtract(1, ordering: .relaxed).newValue == 0 {
            let elapsed = ContinuousClock.now - start
            last.withLock { $0 = elapsed }
        }
    }

    /// The time from creation to the last event, once all happened.
    var reachedAfter: Duration? { last.withLock { $0 } }
}
