import IMEngine
import IMProfiles

extension CommandExecutor {
    /// Waits until every account is in `state` or passed through it, at most `timeout` seconds;
    /// fails at once when an account ended for good in another state (it cannot get there).
    ///
    /// It looks at each account in the book once, then again after each change the book
    /// records for that account (the hub's events), until none is left undecided, the time is
    /// up or Ctrl-C cancels it: no polling, and with many accounts one change costs one look.
    func wait(_ selection: AccountSelection, for state: ConnectionStatus, timeout: Double) async throws(ShellError) -> CommandResult {
        let accounts = try await accounts(selection, sessionsOnly: true)
        // Watching starts before the first look, so no change can fall between the two.
        let (changes, stop) = book.watch(Set(accounts.map(\.reference)), for: timeout)
        defer { stop() }
        let marks = accounts.map { book.mark($0.reference) }
        var reached = Array(repeating: false, count: accounts.count)
        var terminations: [SessionTermination?] = Array(repeating: nil, count: accounts.count)
        // A named account without a session cannot get anywhere: it fails at once, as for the
        // other session commands, instead of waiting out the timeout (`all` has only sessions).
        var withoutSession = Set<AccountReference>()
        if case .accounts = selection {
            for account in accounts where await registry.session(account.reference) == nil { withoutSession.insert(account.reference) }
        }
        var undecided: [AccountReference: [Int]] = [:]
        for (index, account) in accounts.enumerated() where !withoutSession.contains(account.reference) {
            undecided[account.reference, default: []].append(index)
        }
        /// Looks at the account of `reference` again; decided once it got there or ended for good.
        func look(_ reference: AccountReference) {
            guard let indices = undecided[reference] else { return }
            for index in indices {
                reached[index] = book.reached(state, reference, since: marks[index])
                terminations[index] = reached[index] ? nil : Self.termination(of: accounts[index].reference, in: book)
            }
            if indices.allSatisfy({ reached[$0] || terminations[$0] != nil }) { undecided[reference] = nil }
        }
        for reference in Array(undecided.keys) { look(reference) }
        var iterator = changes.makeAsyncIterator()
        // nil: the time is up or the command was cancelled.
        while !undecided.isEmpty, let changed = await iterator.next() { look(changed) }
        let interrupted = Task.isCancelled
        let outcomes = accounts.enumerated().map { index, account in
            if withoutSession.contains(account.reference) { return noSession(account) }
            let done = reached[index]
            let status = book.status(of: account.reference)
            var why = interrupted ? "interrupted" : "still \(status.name) (\(status.rawValue)) after \(Self.seconds(timeout))"
            if let termination = terminations[index] { why = "ended for good: \(termination)" }
            return AccountOutcome(
                account: account.reference, ok: done, status: status, code: done ? nil : book.lastChange(of: account.reference)?.code,
                message: done ? nil : "\(why), not \(state.name) (\(state.rawValue))")
        }
        return .outcomes(outcomes)
    }

    /// How the account's session ended, when it stopped for good (no retry will come).
    static func termination(of account: AccountReference, in book: SessionBook) -> SessionTermination? {
        guard case .stopped(let termination)? = book.snapshot(of: account)?.state else { return nil }
        return termination
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
