import IMCommandLine
import IMEngine
import IMHTTPClient
import IMProfiles
import IMProtocol

/// Runs parsed commands against the profiles and sessions, and returns plain result values.
///
/// The REPL and the script runner share it; neither rendering nor output happens here.
/// Commands of several accounts run for each account in parallel.
public final class CommandExecutor: Sendable {
    public let context: ShellContext
    public let router: EventRouter
    public let redactor: SecretRedactor
    let registry: SessionRegistry

    /// How long `send` waits for the server's acknowledgement before calling the message pending.
    static let sendAcknowledgementWait: Duration = .seconds(5)

    /// `seed` draws what `link ACCOUNT loss` loses: the same seed, the same draws.
    public init(context: ShellContext, redactor: SecretRedactor, router: EventRouter = EventRouter(book: SessionBook()), seed: UInt64 = 0) {
        self.context = context
        self.redactor = redactor
        self.router = router
        let data = context.dataDirectory.path
        registry = SessionRegistry(profiles: context.profiles, dataDirectory: data, router: router, seed: seed)
    }

    public var book: SessionBook { router.book }

    /// Remarks about the embedded server's apps, such as two profiles sharing an app key.
    public var serverNotes: [String] { registry.server.notes }

    /// Runs one command. `quit` does nothing here: the front end ends and calls `shutdown`.
    public func execute(_ command: ShellCommand) async -> CommandResult {
        var result: CommandResult
        do throws(ShellError) {
            result = try await run(command)
            // Named here, from the command's table entry, rather than by each command's code.
            result.command = command.name
        } catch {
            result = .failure(command.name, error.message, profileError: error.isProfileError)
        }
        // connect --no-wait answers once the calls are started: what they do next is told by
        // events after the result, as for any later change; every other result follows its events.
        if case .connect(_, _, _, wait: false) = command {} else { await registry.flushEvents() }
        return result
    }

    /// Stops printing events, disconnects every session and stops the engines and the
    /// embedded server; returns how many sessions were still connected or connecting.
    public func shutdown() async -> Int {
        router.mute()
        return await registry.shutdown()
    }

    /// The command's result, which `execute` names.
    private func run(_ command: ShellCommand) async throws(ShellError) -> CommandResult {
        switch command {
        case .help(let topic):
            return CommandResult(output: .help(topic.flatMap(CommandCatalog.named)))
        case .profiles:
            var report = context.report()
            report.notes += serverNotes
            return CommandResult(output: .profiles(report))
        case .use(let profile):
            _ = try context.profile(named: profile)
            context.setActiveProfile(profile)
            return CommandResult(output: .activeProfile(profile))
        case .accounts(let profile):
            return try await listAccounts(profile)
        case let .connect(selection, timeout, kickEnable, wait):
            return try await connect(selection, timeout: timeout, kickEnable: kickEnable, wait: wait)
        case let .disconnect(selection, disablePush):
            return try await disconnect(selection, disablePush: disablePush)
        case .kick(let account):
            return try await admin(account, done: "kicked: every device of the user is disconnected") { client, user throws(ServerAPIError) in
                try await client.kick(userIDs: [user])
            }
        case let .block(account, minutes):
            return try await admin(account, done: "blocked for \(minutes) min") { client, user throws(ServerAPIError) in
                try await client.block(userIDs: [user], minutes: minutes)
            }
        case .unblock(let account):
            return try await admin(account, done: "unblocked") { client, user throws(ServerAPIError) in
                try await client.unblock(userIDs: [user])
            }
        case .expireToken(let account):
            let now = WallClock.milliseconds()
            return try await admin(account, done: "tokens issued until now no longer log in") { client, user throws(ServerAPIError) in
                try await client.expireTokens(userIDs: [user], before: now)
            }
        case .deactivate(let account):
            return try await admin(account, done: "deactivated: its devices are disconnected (userAbandon)") { client, user throws(ServerAPIError) in
                try await client.deactivate(userIDs: [user])
            }
        case .reactivate(let account):
            return try await admin(account, done: "reactivated") { client, user throws(ServerAPIError) in
                try await client.reactivate(userIDs: [user])
            }
        case .status(let account):
            return try await status(account)
        case let .send(account, peer, text):
            return try await send(from: account, to: peer, text: text)
        case let .history(account, peer, limit):
            return try await history(account, peer: peer, limit: limit)
        case let .log(account, limit):
            return try await log(account, limit: limit)
        case let .timeline(selection, request):
            return try await timeline(selection, request)
        case let .net(selection, event):
            return try await net(selection, event)
        case let .background(selection, grace):
            let duration = grace.map(OptionValue.duration(seconds:))
            return try await eachSession(selection) { session in await session.enterBackground(grace: duration) }
        case .foreground(let selection):
            return try await eachSession(selection) { session in await session.enterForeground() }
        case let .wait(selection, state, timeout):
            return try await wait(selection, for: state, timeout: timeout)
        case let .expect(account, expectation):
            return try await expect(account, expectation)
        case .server(let action):
            return try await server(action)
        case let .link(account, fault):
            return try await link(account, fault)
        case .damageDatabase(let account):
            return try await damageDatabase(account)
        case .require(let requirement):
            return try require(requirement)
        case .skip(let reason):
            return CommandResult(output: .skipped(reason: reason))
        case .sleep(let seconds):
            do {
                try await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
            } catch {
                return CommandResult(.failed("interrupted"))
            }
            return CommandResult(output: .slept(seconds: seconds))
        case .quit:
            return CommandResult()
        }
    }

    // MARK: Accounts

    /// The accounts a selection names, each once, in order. `all` is every account of the
    /// profile, or with `sessionsOnly` those with a session (an empty list is then an error
    /// unless `allowEmpty`).
    func accounts(_ selection: AccountSelection, sessionsOnly: Bool, allowEmpty: Bool = false) async throws(ShellError) -> [Account] {
        switch selection {
        case .all(let name):
            let profile = if let name { try context.profile(named: name) } else { try context.activeOrFail() }
            guard sessionsOnly else { return profile.accounts }
            let withSessions = Set(await registry.accountsWithSessions(inProfile: profile.name))
            let accounts = profile.accounts.filter { withSessions.contains($0.reference) }
            guard !accounts.isEmpty || allowEmpty else {
                throw ShellError("profile \(profile.name) has no sessions yet; connect some accounts first")
            }
            return accounts
        case .accounts(let references):
            var seen = Set<AccountReference>()
            var accounts: [Account] = []
            for reference in references {
                let account = try context.account(reference)
                if seen.insert(account.reference).inserted { accounts.append(account) }
            }
            return accounts
        }
    }

    /// Runs `body` for each account in parallel; the outcomes keep the accounts' order.
    func forEach(_ accounts: [Account], _ body: @escaping @Sendable (Account) async -> AccountOutcome) async -> [AccountOutcome] {
        await withTaskGroup(of: (Int, AccountOutcome).self) { group in
            for (index, account) in accounts.enumerated() {
                group.addTask { (index, await body(account)) }
            }
            var outcomes = [AccountOutcome?](repeating: nil, count: accounts.count)
            for await (index, outcome) in group { outcomes[index] = outcome }
            return outcomes.compactMap { $0 }
        }
    }

    /// The outcome for an account a command needs a session of, when it has none.
    func noSession(_ account: Account) -> AccountOutcome {
        AccountOutcome(account: account.reference, ok: false, status: .unknown, message: "no session yet; connect \(account.reference) first")
    }

    /// The account's session, or an error saying it has none.
    func session(_ account: Account) async throws(ShellError) -> Session {
        guard let session = await registry.session(account.reference) else {
            throw ShellError("\(account.reference) has no session in this run; connect it first")
        }
        return session
    }

    private func eachSession(
        _ selection: AccountSelection, _ body: @escaping @Sendable (Session) async -> Void
    ) async throws(ShellError) -> CommandResult {
        let accounts = try await accounts(selection, sessionsOnly: true)
        let outcomes = await forEach(accounts) { [self] account in
            guard let session = await registry.session(account.reference) else { return noSession(account) }
            await body(session)
            return AccountOutcome(account: account.reference, ok: true, status: await session.status, userID: await session.userID)
        }
        return .outcomes(outcomes)
    }
}
