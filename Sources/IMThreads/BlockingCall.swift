#if canImport(Glibc)
import Glibc
#endif

/// Runs a blocking call (a file read, a join, a wait for a child) on a thread of its own,
/// so that Swift's cooperative pool stays free: the one way imsh does this.
///
/// A fresh thread rather than a Dispatch worker: a call may block for minutes (a bench's
/// child), and Dispatch would hold one of its few workers for all that time.
public enum BlockingCall {
    /// `body`'s result, computed on a thread of its own.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = SystemThread.spawn(name: "imsh-blocking") { continuation.resume(returning: body()) }
            pthread_detach(thread)
        }
    }

    /// `body`'s result or error, computed on a thread of its own.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await run { Result { try body() } }.get()
    }
}
