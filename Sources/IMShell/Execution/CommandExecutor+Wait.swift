import IMEngine
import IMProfiles

extension CommandExecutor {
    /// Waits until every account is in `state` or passed through it, at most `timeout` seconds;
    /// fails at once when an account ended for good in another state (it cannot get there).
    ///
    /// It looks at the book once, then again after each change the book records for these
    /// accounts (the hub's events), and once more when the time is up or Ctrl-C cancels it.
    func wait(_ selection: AccountSelection, for state: ConnectionStatus, timeout: Double) async throws(ShellError) -> CommandResult {
        let accounts = try await accounts(selection, sessionsOnly: true)
        // Watching starts before the first look, so no change can fall between the two.
        let (changes, stop) = book.watch(Set(accounts.map(\.reference)))
        let marks = accounts.map { book.mark($0.reference) }
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
        let timer = Task {
            try? await Task.sleep(until: deadline, clock: .continuous)
            stop()
        }
        defer {
            timer.cancel()
            stop()
        }
        var iterator = changes.makeAsyncIterator()
        var ended = false
        while true {
            let reached = zip(accounts, marks).map { book.reached(state, $0.reference, since: $1) }
            let terminations = zip(accounts, reached).map { account, done in done ? nil : Self.termination(of: account, in: book) }
            let finished = zip(reached, terminations).allSatisfy { $0 || $1 != nil }
            if reached.allSatisfy({ $0 }) || finished || ended {
                let interrupted = Task.isCancelled
                let outcomes = zip(accounts, zip(reached, terminations)).map { account, result in
                    let (done, termination) = result
                    let status = book.status(of: account.reference)
                    var why = interrupted ? "interrupted" : "still \(status.name) (\(status.rawValue)) after \(Self.seconds(timeout))"
                    if let termination { why = "ended for good: \(termination)" }
                    return AccountOutcome(
                        account: account.reference, ok: done, status: status, code: done ? nil : book.lastChange(of: account.reference)?.code,
                        message: done ? nil : "\(why), not \(state.name) (\(state.rawValue))")
                }
                return .outcomes("wait", outcomes)
            }
            // nil: the time is up or the command was cancelled; look once more, then answer.
            if await iterator.next() == nil { ended = true }
        }
    }

    /// How the account's session ended, when it stopped for good (no retry will come).
    private static func termination(of account: Account, in book: SessionBook) -> SessionTermination? {
        guard case .stopped(let termination)? = book.snapshot(of: account.reference)?.state else { return nil }
        return termination
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
