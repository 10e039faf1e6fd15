#if canImport(Glibc)
import CTransport
import Glibc
#endif
import IMThreads
import Synchronization

/// The identity of the thread an event loop runs on, readable from any thread.
final class LoopThread: Sendable {
    private let id = Atomic<UInt>(0)

    /// Whether the caller runs on the loop thread.
    ///
    /// A relaxed load suffices: only the loop thread stores its own id, and it sees its own
    /// store; any other thread reads 0 or that id, and neither equals its own.
    var isCurrent: Bool {
        id.load(ordering: .relaxed) == UInt(pthread_self())
    }

    /// Called first thing on the loop thread.
    func bindToCurrentThread() {
        id.store(UInt(pthread_self()), ordering: .relaxed)
    }

    /// Called last thing on the loop thread, since a later thread may reuse the id.
    func unbind() {
        id.store(0, ordering: .relaxed)
    }

    /// Starts a joinable thread named `name` (at most 15 bytes) running `body`.
    static func spawn(name: String, _ body: @escaping @Sendable () -> Void) -> pthread_t {
        SystemThread.spawn(name: name, body)
    }
}
