#if canImport(Glibc)
import Glibc
#endif

/// poll(2) with a deadline, for the token sources' blocking reads and writes.
enum BlockingIO {
    /// Milliseconds left until `deadline`, 0 once it passed.
    static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
        let left = deadline - ContinuousClock.now
        guard left > .zero else { return 0 }
        return Int32(min(Double(Int32.max), (left / .milliseconds(1)).rounded(.up)))
    }

    /// Waits until one of `descriptors` has `events`; the ready ones, empty at the deadline.
    static func wait(_ descriptors: [Int32], for events: Int16, until deadline: ContinuousClock.Instant) -> [Int32] {
        var entries = descriptors.map { pollfd(fd: $0, events: events, revents: 0) }
        while true {
            let count = poll(&entries, nfds_t(entries.count), milliseconds(until: deadline))
            if count > 0 { return entries.filter { $0.revents != 0 }.map(\.fd) }
            if count == 0 || errno != EINTR { return [] }
        }
    }

    /// The text of `errno`.
    static func reason(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }
}

/// Why a token source's blocking step failed, in words.
struct SourceFailure: Error {
    let reason: String

    init(_ reason: String) { self.reason = reason }
}
