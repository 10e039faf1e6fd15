import Synchronization

/// Where the sessions' reports go: into the book, then to the front end's output.
///
/// Called on each engine's callback queue, in the order the session reported; the front end
/// prints synchronously, so a command's events appear before its result.
public final class EventRouter: Sendable {
    public let book: SessionBook
    private let output = Mutex<(@Sendable (ShellEvent) -> Void)?>(nil)
    private let muted = Mutex(false)

    public init(book: SessionBook) {
        self.book = book
    }

    /// Sends every event to `sink` from now on.
    public func connect(_ sink: @escaping @Sendable (ShellEvent) -> Void) {
        output.withLock { $0 = sink }
    }

    /// Stops printing events (they are still recorded), as when the shell shuts down.
    public func mute() {
        muted.withLock { $0 = true }
    }

    func deliver(_ event: ShellEvent) {
        book.record(event)
        guard !muted.withLock({ $0 }), let sink = output.withLock({ $0 }) else { return }
        sink(event)
    }
}
