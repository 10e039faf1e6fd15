import Dispatch
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Reads a child's output a line at a time, each read bounded by a deadline (poll), on a
/// dispatch thread so the blocking waits stay off Swift's cooperative pool.
final class LineReader: @unchecked Sendable {
    // Unchecked: one test task reads at a time; `pending` is only touched inside `line`.
    private let descriptor: Int32
    private var pending: [UInt8] = []

    init(_ descriptor: Int32) { self.descriptor = descriptor }

    /// The next line without its newline; nil at end of file; throws past `limit`.
    func line(within limit: Duration = .seconds(10)) async throws -> String? {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { [self] in
                continuation.resume(with: Result { try readLine(deadline: .now + limit) })
            }
        }
    }

    private func readLine(deadline: ContinuousClock.Instant) throws -> String? {
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                defer { pending.removeFirst(newline + 1) }
                return String(decoding: pending[..<newline], as: UTF8.self)
            }
            let left = deadline - .now
            guard left > .zero else { throw TestFailure("no line within the time limit; so far: \(pending)") }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, Int32(left / .milliseconds(1)) + 1) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 {
                if count < 0 && errno == EINTR { continue }
                return pending.isEmpty ? nil : String(decoding: pending.take(), as: UTF8.self)
            }
            pending += buffer[..<count]
        }
    }
}

extension Array {
    fileprivate mutating func take() -> [Element] {
        defer { self = [] }
        return self
    }
}
