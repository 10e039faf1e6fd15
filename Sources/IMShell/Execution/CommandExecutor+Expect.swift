import IMEngine
import IMProfiles

extension CommandExecutor {
    /// Where an expectation stands after a look: met (with what met it), failed (why), or open.
    enum ExpectationVerdict: Sendable {
        case met(String)
        case failed(String)
    }

    /// How far from a kick another device's login may be to count as the kicker (`--by`).
    static let kickerWindowMilliseconds: Int64 = 10_000

    /// Runs `expect`: looks at the account once, then again after each event the book records
    /// for it (or for the `--by` account), until the expectation is decided or its time is up.
    /// No polling, as for `wait`. The negative forms are met when the time runs out undisturbed.
    func expect(_ reference: AccountReference, _ asked: Expectation) async throws(ShellError) -> CommandResult {
        let account = try context.account(reference).reference
        var expectation = asked
        var watched: Set<AccountReference> = [account]
        if case let .status(status, code, by?) = asked.kind {
            // With its profile, as the book names accounts.
            let kicker = try context.account(by).reference
            expectation.kind = .status(status, code: code, by: kicker)
            watched.insert(kicker)
        }
        let expected = "expect \(account): \(expectation)"
        guard await registry.session(account) != nil else {
            throw ShellError("\(expected): \(account) has no session yet; connect it first")
        }
        // The book as of every event published so far: a `connect --no-wait` just made has
        // started a call whose first events may not be in it yet, and the status it left (say
        // userAbandon, from before) must not meet an expectation of the call's outcome.
        await registry.flushEvents()
        let (changes, stop) = book.watch(watched, for: expectation.seconds)
        defer { stop() }
        let mark = book.mark(account)
        var verdict = look(account, expectation, since: mark)
        var iterator = changes.makeAsyncIterator()
        while verdict == nil, await iterator.next() != nil { verdict = look(account, expectation, since: mark) }
        if Task.isCancelled { verdict = .failed("interrupted") }
        let final = verdict ?? timeUp(account, expectation, since: mark)
        let output = CommandOutput.expectation(account: account, expected: expectation.description, met: nil)
        switch final {
        case .met(let evidence):
            return CommandResult(output: .expectation(account: account, expected: expectation.description, met: evidence))
        case .failed(let why):
            let message = "\(expected): \(why); \(evidence(account))"
            return CommandResult(.failed(message), output: output)
        }
    }

    /// The verdict the account's state gives now; nil while it could still go either way.
    private func look(_ account: AccountReference, _ expectation: Expectation, since mark: Int) -> ExpectationVerdict? {
        switch expectation.kind {
        case .message(let pattern):
            guard let message = book.received.claim(account, afterClaimed: pattern.inOrder, where: pattern.matches) else { return nil }
            return .met("received \(Self.describe(message))")
        case .noMessage(let pattern):
            guard let message = book.received.unclaimed(account, where: pattern.matches).first else { return nil }
            return .failed("received \(Self.describe(message))")
        case .stays(let status):
            let left = book.changes(of: account, since: mark).first { $0.status != status }
            if let left { return .failed("went \(Self.describe(left))") }
            let now = book.status(of: account)
            return now == status ? nil : .failed("it is \(now.name) (\(now.rawValue))")
        case let .retries(waits, tolerance):
            return retriesVerdict(account, waits, tolerance: tolerance)
        case .databaseRecreated:
            return book.claimRecreation(of: account) ? .met("its damaged database was moved aside and made anew") : nil
        case let .status(status, code, by):
            guard let change = reaching(status, account, since: mark) else {
                if let termination = Self.termination(of: account, in: book) { return .failed("it ended for good: \(termination)") }
                return nil
            }
            if let code, change.code != code {
                return Self.termination(of: account, in: book) == nil ? nil : .failed("it went \(Self.describe(change)), not with code \(code.rawValue)")
            }
            guard let by else { return .met("it went \(Self.describe(change))") }
            let kicker = self.kicker(of: account, at: change)
            guard kicker?.account == by else { return nil }
            return .met("it went \(Self.describe(change)); \(by)'s login at \(Self.clock(kicker!.at)) is the closest")
        }
    }

    /// The verdict when the time ran out without one.
    private func timeUp(_ account: AccountReference, _ expectation: Expectation, since mark: Int) -> ExpectationVerdict {
        let time = Self.seconds(expectation.seconds)
        switch expectation.kind {
        case .message:
            return .failed("none came within \(time)")
        case .noMessage:
            return .met("none came for \(time)")
        case .stays(let status):
            return .met("it stayed \(status.name) for \(time)")
        case let .retries(waits, tolerance):
            return retriesVerdict(account, waits, tolerance: tolerance) ?? retriesShortfall(account, waits)
        case .databaseRecreated:
            return .failed("its database was not recreated within \(time)")
        case let .status(status, code, by):
            guard let change = reaching(status, account, since: mark) else {
                let now = book.status(of: account)
                return .failed("it is still \(now.name) (\(now.rawValue)) after \(time)")
            }
            if let code, change.code != code { return .failed("it went \(Self.describe(change)), not with code \(code.rawValue)") }
            guard let by else { return .met("it went \(Self.describe(change))") }
            if change.detail == "kicked" { return .failed("it went \(Self.describe(change)): the server API kicked it, not \(by)") }
            guard let kicker = kicker(of: account, at: change) else {
                return .failed("it went \(Self.describe(change)), but no other device of its user logged in within 10 s of it")
            }
            return .failed("it went \(Self.describe(change)); the closest login was \(kicker.account)'s at \(Self.clock(kicker.at)), not \(by)'s")
        }
    }

    /// The change that put the account in `status` after `mark`, or the last one when it is in it now.
    private func reaching(_ status: ConnectionStatus, _ account: AccountReference, since mark: Int) -> StatusChange? {
        if let change = book.changes(of: account, since: mark).last(where: { $0.status == status }) { return change }
        guard book.status(of: account) == status, let last = book.lastChange(of: account), last.status == status else { return nil }
        return last
    }

    /// The kicker of a kick: the other device of the same user whose login (connected) in this
    /// run is closest to it, within 10 s. The server names no kicker on the wire (DISCONNECT 0x8E
    /// with other-device-login), so the login that caused it is the best witness, as `timeline` draws it.
    func kicker(of account: AccountReference, at kick: StatusChange) -> (account: AccountReference, at: Int64)? {
        guard let user = book.snapshot(of: account)?.userID else { return nil }
        var best: (account: AccountReference, at: Int64)?
        for (other, changes) in book.otherDevices(of: account, user: user) {
            for change in changes where change.status == .connected && abs(change.at - kick.at) <= Self.kickerWindowMilliseconds {
                if best.map({ abs(change.at - kick.at) < abs($0.at - kick.at) }) ?? true { best = (other, change.at) }
            }
        }
        return best
    }
}
