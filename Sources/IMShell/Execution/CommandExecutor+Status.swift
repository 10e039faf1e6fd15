import IMEngine
import IMProfiles

extension CommandExecutor {
    func listAccounts(_ name: String?) async throws(ShellError) -> CommandResult {
        let profile = if let name { try context.profile(named: name) } else { try context.activeOrFail() }
        var rows: [AccountStatus] = []
        for account in profile.accounts { rows.append(await status(of: account, detailed: false)) }
        return CommandResult(command: "accounts", output: .accounts(profile: profile.name, rows))
    }

    func status(_ reference: AccountReference?) async throws(ShellError) -> CommandResult {
        if let reference {
            let account = try context.account(reference)
            return CommandResult(command: "status", output: .status([await status(of: account, detailed: true)], detailed: true))
        }
        var accounts = (try? context.activeOrFail())?.accounts ?? []
        let shown = Set(accounts.map(\.reference))
        for other in await registry.allAccountsWithSessions() where !shown.contains(other) {
            accounts.append(try context.account(other))
        }
        var rows: [AccountStatus] = []
        for account in accounts { rows.append(await status(of: account, detailed: false)) }
        return CommandResult(command: "status", output: .status(rows, detailed: false))
    }

    /// What the book and the session say about `account`.
    func status(of account: Account, detailed: Bool) async -> AccountStatus {
        let reference = account.reference
        let session = await registry.session(reference)
        var row = AccountStatus(
            account: account, status: book.status(of: reference), lastChange: book.lastChange(of: reference),
            userID: await session?.userID ?? account.userID, hasSession: session != nil,
            server: await session?.connectedServer?.description)
        row.tls = await session?.connectedTLS
        if detailed {
            row.databaseFile = await session?.databaseFile
            row.recentChanges = book.changes(of: reference, limit: 10)
        }
        return row
    }
}
