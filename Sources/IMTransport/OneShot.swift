import Synchronization

/// A value delivered once, awaited once: bridges loop callbacks to `async` callers.
///
/// `fulfil` may be called from any thread and more than once; the first value wins, which
/// settles races between completion and cancellation without further bookkeeping.
public final class OneShot<Value: Sendable>: Sendable {
    private enum State {
        case empty
        case waiting(CheckedContinuation<Value, Never>)
        case ready(Value)
        case consumed
    }

    private let state = Mutex<State>(.empty)

    /// Delivers `value` unless a value was delivered before.
    public init() {}

    public func fulfil(_ value: Value) {
        let waiter: CheckedContinuation<Value, Never>? = state.withLock { state in
            switch state {
            case .empty:
                state = .ready(value)
                return nil
            case let .waiting(continuation):
                state = .consumed
                return continuation
            case .ready, .consumed:
                return nil
            }
        }
        waiter?.resume(returning: value)
    }

    /// Suspends until a value is delivered; call at most once.
    public func wait() async -> Value {
        await withCheckedContinuation { continuation in
            let ready: Value? = state.withLock { state in
                switch state {
                case .empty:
                    state = .waiting(continuation)
                    return nil
                case let .ready(value):
                    state = .consumed
                    return value
                case .waiting, .consumed:
                    preconditionFailure("OneShot awaited twice")
                }
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
