import Foundation
import Synchronization

/// One subscriber's queue of hub events: read with `next()` from a task or `nextBlocking()`
/// from a thread of its own (a front end whose output may block).
///
/// The buffer holds at most `limit` events; when it is full the oldest is dropped and
/// counted, and the next event delivered carries the count in `droppedBefore`. Ending the
/// subscription (`cancel`) wakes any reader with nil.
public final class SessionEventSubscription: Sendable {
    private struct State {
        var buffer: [SessionEvent] = []
        /// Index of the first undelivered event in `buffer` (compacted as it grows).
        var head = 0
        var dropped = 0
        var isFinished = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    public let limit: Int
    /// The one session whose events it gets; nil: every session's.
    public let session: SessionID?
    private let state = Mutex(State())
    /// Wakes `nextBlocking` readers; tasks wait on a continuation instead.
    private let condition = NSCondition()
    private let onCancel: @Sendable (SessionEventSubscription) -> Void

    init(limit: Int, session: SessionID?, onCancel: @escaping @Sendable (SessionEventSubscription) -> Void) {
        self.limit = max(1, limit)
        self.session = session
        self.onCancel = onCancel
    }

    deinit {
        state.withLock { $0.waiter.take() }?.resume()
    }

    func enqueue(_ event: SessionEvent) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.isFinished else { return nil }
            if state.buffer.count - state.head >= limit {
                state.head += 1
                state.dropped += 1
            }
            state.buffer.append(event)
            if state.head > 4096 && state.head * 2 > state.buffer.count {
                state.buffer.removeFirst(state.head)
                state.head = 0
            }
            return state.waiter.take()
        }
        waiter?.resume()
        condition.lock()
        condition.signal()
        condition.unlock()
    }

    private func take() -> SessionEvent?? {
        state.withLock { state -> SessionEvent?? in
            if state.head < state.buffer.count {
                var event = state.buffer[state.head]
                state.head += 1
                if state.head == state.buffer.count {
                    state.buffer.removeAll(keepingCapacity: state.buffer.capacity <= 1024)
                    state.head = 0
                }
                event.droppedBefore = state.dropped
                state.dropped = 0
                return .some(event)
            }
            return state.isFinished ? .some(nil) : .none
        }
    }

    /// The next event, waiting for one; nil once the subscription is cancelled. One reader at a time.
    public func next() async -> SessionEvent? {
        while true {
            if let taken = take() { return taken }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    if state.head < state.buffer.count || state.isFinished { return true }
                    state.waiter = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        }
    }

    /// The next event, blocking this thread until there is one or `deadline` passes (nil then,
    /// and once the subscription is cancelled). Not for the cooperative thread pool.
    public func nextBlocking(until deadline: Date? = nil) -> SessionEvent? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let taken = take() { return taken }
            guard let deadline else {
                // Foundation's timed wait traps on a deadline as far off as distantFuture.
                condition.wait()
                continue
            }
            if !condition.wait(until: deadline) { return take() ?? nil }
        }
    }

    /// Events waiting to be read.
    public var backlog: Int {
        state.withLock { $0.buffer.count - $0.head }
    }

    /// Stops the subscription: no more events are queued, and readers get nil once the queue is empty.
    public func cancel() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.isFinished = true
            return state.waiter.take()
        }
        waiter?.resume()
        condition.lock()
        condition.broadcast()
        condition.unlock()
        onCancel(self)
    }
}
