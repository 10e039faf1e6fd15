import IMEngine
import IMProfiles

extension CommandExecutor {
    /// How often `wait` looks at the book.
    static let waitPollInterval: Duration = .milliseconds(10)

    /// Waits until every account is in `state` or passed through it, at most `timeout` seconds.
    func wait(_ selection: AccountSelection, for state: ConnectionStatus, timeout: Double) async throws(ShellError) -> CommandResult {
        let accounts = try await accounts(selection, sessionsOnly: true)
        let marks = accounts.map { book.mark($0.reference) }
        let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
        var interrupted = false
        while true {
            let reached = zip(accounts, marks).map { book.reached(state, $0.reference, since: $1) }
            if reached.allSatisfy({ $0 }) || ContinuousClock.now >= deadline || interrupted {
                let outcomes = zip(accounts, reached).map { account, done in
                    let status = book.status(of: account.reference)
                    let why = interrupted ? "interrupted" : "still \(status.name) (\(status.rawValue)) after \(Self.seconds(timeout))"
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

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
