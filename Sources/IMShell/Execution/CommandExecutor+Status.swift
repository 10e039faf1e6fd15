import IMEngine
import IMProfiles

extension CommandExecutor {
    func listAccounts(_ name: String?) async throws(ShellError) -> CommandResult {
        let profile = if let name { try context.profile(named: name) } else { try context.activeOrFail() }
        var rows: [AccountStatus] = []
        for account in profile.accounts { rows.append(await status(of: account, detailed: false)) }
        return CommandResult(output: .accounts(profile: profile.name, rows))
    }

    func status(_ reference: AccountReference?) async throws(ShellError) -> CommandResult {
        // The book as of every event published so far (a connect --no-wait answers before its events).
        await registry.flushEvents()
        if let reference {
            let account = try context.account(reference)
            return CommandResult(output: .status([await status(of: account, detailed: true)], detailed: true))
        }
        var accounts = (try? context.activeOrFail())?.accounts ?? []
        let shown = Set(accounts.map(\.reference))
        for other in await registry.allAccountsWithSessions() where !shown.contains(other) {
            accounts.append(try context.account(other))
        }
        var rows: [AccountStatus] = []
        for account in accounts { rows.append(await status(of: account, detailed: false)) }
        return CommandResult(output: .status(rows, detailed: false))
    }

    /// The account's row: one snapshot from the book, never fields read at different moments.
    func status(of account: Account, detailed: Bool) async -> AccountStatus {
        let reference = account.reference
        let snapshot = book.snapshot(of: reference)
        var row = AccountStatus(account: account, snapshot: snapshot)
        if detailed {
            row.recentChanges = book.changes(of: reference, limit: 10)
        }
        return row
    }

    /// `net`: the simulated network belongs to the account for the whole run: set before its
    /// first connect, it holds for every session the account gets.
    func net(_ selection: AccountSelection, _ event: NetworkEvent) async throws(ShellError) -> CommandResult {
        // Named accounts may have no session yet; 'all' is every session, as for other session commands.
        let isAll = if case .all = selection { true } else { false }
        let accounts = try await accounts(selection, sessionsOnly: isAll)
        let outcomes = await forEach(accounts) { [self] account in
            await registry.setSimulatedNetwork(event, for: account.reference)
            guard let session = await registry.session(account.reference) else {
                let note = event == .down ? "no session yet: it will start with the network down" : "no session yet"
                return AccountOutcome(account: account.reference, ok: true, status: .unknown, message: note)
            }
            await session.simulateNetwork(event)
            let snapshot = await session.snapshot()
            return AccountOutcome(account: account.reference, ok: true, status: snapshot.status, userID: snapshot.userID)
        }
        return .outcomes(outcomes)
    }
}
