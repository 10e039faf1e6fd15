import Foundation

/// Runs a blocking call (joining threads, waiting for a child) on a thread of its own, so
/// that Swift's cooperative pool stays free.
enum BlockingCall {
    static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: body()) }
        }
    }
}
