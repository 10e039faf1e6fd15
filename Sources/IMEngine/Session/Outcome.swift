import Synchronization

/// A value delivered once from a callback and awaited once: the async variants' bridge.
final class Outcome<Value: Sendable>: Sendable {
    private enum State {
        case empty
        case waiting(CheckedContinuation<Value, Never>)
        case ready(Value)
        case consumed
    }

    private let state = Mutex(State.empty)

    /// Delivers `value`; later deliveries are ignored.
    func fulfil(_ value: Value) {
        let waiter: CheckedContinuation<Value, Never>? = state.withLock { state in
            switch state {
            case .empty:
                state = .ready(value)
                return nil
            case .waiting(let continuation):
                state = .consumed
                return continuation
            case .ready, .consumed:
                return nil
            }
        }
        waiter?.resume(returning: value)
    }

    /// Waits for the value; await it once.
    var value: Value {
        get async {
            await withCheckedContinuation { continuation in
                let ready: Value? = state.withLock { state in
                    switch state {
                    case .empty:
                        state = .waiting(continuation)
                        return nil
                    case .ready(let value):
                        state = .consumed
                        return value
                    case .waiting, .consumed:
                        preconditionFailure("Outcome awaited twice")
                    }
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}
