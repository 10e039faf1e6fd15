import IMEngine
import IMProfiles

extension CommandExecutor {
    /// How often `wait` looks at the book.
    static let waitPollInterval: Duration = .milliseconds(10)

    /// Waits until every account is in `state` or passed through it, at most `timeout` seconds;
    /// fails at once when an account ended for good in another state (it cannot get there).
    func wait(_ selection: AccountSelection, for state: ConnectionStatus, timeout: Double) async throws(ShellError) -> CommandResult {
        let accounts = try await accounts(selection, sessionsOnly: true)
        let marks = accounts.map { book.mark($0.reference) }
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
        var interrupted = false
        while true {
            let reached = zip(accounts, marks).map { book.reached(state, $0.reference, since: $1) }
            let ended = zip(accounts, reached).map { account, done in done ? nil : Self.termination(of: account, in: book) }
            let finished = zip(reached, ended).allSatisfy { $0 || $1 != nil }
            if reached.allSatisfy({ $0 }) || finished || ContinuousClock.now >= deadline || interrupted {
                let outcomes = zip(accounts, zip(reached, ended)).map { account, result in
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
            do {
                try await Task.sleep(for: Self.waitPollInterval)
            } catch {
                interrupted = true
            }
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
