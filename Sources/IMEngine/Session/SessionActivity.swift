/// What a session's policy set running: connection attempt `generation`, dialling or linked,
/// and the timers (`SessionStateMachine.Action`).
///
/// The attempt is one value: it dials, then holds the link the server accepted, so there is
/// never a dial and a link at once, nor a link without the attempt that made it. Confined to
/// the session actor; `stop()` ends all of it when the session closes.
struct SessionActivity {
    /// A connection attempt, from `open` until the policy closes it or it fails.
    enum Attempt {
        /// Fetching the token if need be, then dialling and logging in.
        case dialling(generation: UInt64, Task<Void, Never>)
        /// The server accepted the login: the live connection.
        case linked(SessionLink)
    }

    /// The current attempt; nil between attempts (waiting, paused, stopped...).
    var attempt: Attempt?
    /// The policy's running timers, one per kind.
    var timers: [SessionStateMachine.TimerKind: Task<Void, Never>] = [:]

    /// The live connection, once the current attempt's login was accepted.
    var link: SessionLink? {
        if case .linked(let link)? = attempt { link } else { nil }
    }

    /// Whether attempt `generation` is still the current one and still dialling.
    func isDialling(_ generation: UInt64) -> Bool {
        if case .dialling(generation, _)? = attempt { true } else { false }
    }

    /// Starts timer `kind`, replacing the one running.
    mutating func start(_ kind: SessionStateMachine.TimerKind, _ task: Task<Void, Never>) {
        timers.updateValue(task, forKey: kind)?.cancel()
    }

    /// Cancels timer `kind`, if it runs.
    mutating func cancel(_ kind: SessionStateMachine.TimerKind) {
        timers.removeValue(forKey: kind)?.cancel()
    }

    /// Cancels the timers and a dial under way; returns the link, for the caller to close.
    mutating func stop() -> SessionLink? {
        for task in timers.values { task.cancel() }
        timers = [:]
        switch attempt.take() {
        case .dialling(_, let task)?:
            task.cancel()
            return nil
        case .linked(let link)?:
            return link
        case nil:
            return nil
        }
    }
}
