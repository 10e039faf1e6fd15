import IMEngine
import IMProfiles
import IMThreads
import IMTransport

extension CommandExecutor {
    func send(from reference: AccountReference, to peer: String, text: String) async throws(ShellError) -> CommandResult {
        let account = try context.account(reference)
        let session = try await session(account)
        // Subscribed before sending, so the acknowledgement cannot slip past.
        let reports = await session.sendReports()
        var message: StoredMessage
        do {
            message = try await session.send(text: text, to: peer)
        } catch {
            throw ShellError("\(account.reference) cannot send: \(error)")
        }
        let report = await Self.firstReport(for: message.cid ?? "", in: reports, within: Self.sendAcknowledgementWait)
        var rejection: String?
        if let report {
            message.state = report.isAccepted ? .sent : .failed
            rejection = report.failure
        }
        let sent = SentMessage(account: account.reference, message: message, rejection: rejection)
        return CommandResult(rejection.map(CommandResult.Outcome.failed) ?? .ok, output: .sent(sent))
    }

    /// The report for `cid`, or nil when none came within `limit`.
    private static func firstReport(for cid: String, in reports: AsyncStream<SendReport>, within limit: Duration) async -> SendReport? {
        await withTaskGroup(of: SendReport?.self) { group in
            group.addTask {
                for await report in reports where report.cid == cid { return report }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    func history(_ reference: AccountReference, peer: String?, limit: Int) async throws(ShellError) -> CommandResult {
        let account = try context.account(reference)
        guard let session = await registry.session(account.reference) else {
            let path = try await databaseFile(of: account)
            let messages = try await Self.offPool(account) { try SessionDatabase.readHistory(path: path, peer: peer, limit: limit) }
            return CommandResult(output: .history(account: account.reference, peer: peer, messages))
        }
        do {
            let messages = try await session.history(peer: peer, limit: limit)
            return CommandResult(output: .history(account: account.reference, peer: peer, messages))
        } catch {
            throw ShellError("\(account.reference): \(error)")
        }
    }

    func log(_ reference: AccountReference?, limit: Int) async throws(ShellError) -> CommandResult {
        guard let reference else {
            return CommandResult(output: .journal(book.journal(limit: limit)))
        }
        let account = try context.account(reference)
        guard let session = await registry.session(account.reference) else {
            let path = try await databaseFile(of: account)
            let entries = try await Self.offPool(account) { try SessionDatabase.readConnectionLog(path: path, limit: limit) }
            return CommandResult(output: .connectionLog(account: account.reference, entries))
        }
        do {
            let entries = try await session.connectionLog(limit: limit)
            return CommandResult(output: .connectionLog(account: account.reference, entries))
        } catch {
            throw ShellError("\(account.reference): \(error)")
        }
    }

    /// The account's database file from an earlier run: its user's (the profile's userId, or
    /// the only user it logged in as), under its data directory.
    func databaseFile(of account: Account) async throws(ShellError) -> String {
        let profile = try context.profile(named: account.profile)
        let directory = registry.directory(of: account.reference)
        let files = SessionDatabase.files(directory: directory, appKey: profile.appKey)
        if let user = account.userID {
            let path = SessionDatabase.path(directory: directory, appKey: profile.appKey, userID: user)
            if files.contains(path) { return path }
        } else if files.count == 1 {
            return files[0]
        }
        throw ShellError("\(account.reference) has no database yet: connect it once (it keeps its messages and log across runs)")
    }

    /// Runs a blocking read off the cooperative pool, naming the account when it fails.
    static func offPool<T: Sendable>(
        _ account: Account, _ body: @escaping @Sendable () throws -> T
    ) async throws(ShellError) -> T {
        do {
            return try await BlockingCall.run(body)
        } catch {
            throw ShellError("\(account.reference): cannot read its database: \(error)")
        }
    }
}
