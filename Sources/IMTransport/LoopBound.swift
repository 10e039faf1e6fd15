/// A value that only one event loop's thread may touch, held in a `Sendable` wrapper.
///
/// This is how the transport's `Sendable` types carry mutable, non-`Sendable` state: the
/// wrapper may travel between threads, but `value` traps unless read on the loop thread, so
/// the value itself is never used from two threads. It is the module's one unchecked
/// conformance; the check it skips at compile time is made at run time on every access.
public struct LoopBound<Value>: @unchecked Sendable {
    private let thread: LoopThread
    private let storage: Value

    /// Wraps `value` for `loop`; `sending` guarantees the caller keeps no other access to it.
    public init(_ value: sending Value, loop: EventLoop) {
        self.init(value, thread: loop.thread)
    }

    /// Wraps a value already confined to `loop`; call on the loop thread (checked at run time).
    ///
    /// For state that lives on the loop and must ride along with work done elsewhere, such as
    /// a continuation to run back on the loop.
    public init(confined value: Value, loop: EventLoop) {
        precondition(loop.inEventLoop, "LoopBound(confined:) called off its event loop thread")
        self.thread = loop.thread
        self.storage = value
    }

    init(_ value: sending Value, thread: LoopThread) {
        self.thread = thread
        self.storage = value
    }

    /// The value; traps when called off the loop thread. Usually a class whose fields you then use.
    public var value: Value {
        precondition(thread.isCurrent, "loop-bound state used off its event loop thread")
        return storage
    }
}
