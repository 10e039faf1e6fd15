import IMEngine
import IMProfiles
import IMTransport

extension CommandExecutor {
    func connect(_ selection: AccountSelection, timeout: Double?, kickEnable: Bool, wait: Bool) async throws(ShellError) -> CommandResult {
        let accounts = try await accounts(selection, sessionsOnly: false)
        guard !accounts.isEmpty else { throw ShellError("\(selection) names no accounts; add some to the profile") }
        let outcomes = await forEach(accounts) { [self] account in
            await connect(account, timeout: timeout, kickEnable: kickEnable, wait: wait)
        }
        return .outcomes(outcomes)
    }

    private func connect(_ account: Account, timeout: Double?, kickEnable: Bool, wait: Bool) async -> AccountOutcome {
        let reference = account.reference
        if let existing = await registry.session(reference) {
            switch await existing.phase {
            case .idle, .signedOut, .stopped, .closed:
                break
            case .connected:
                return AccountOutcome(
                    account: reference, ok: true, status: .connected, userID: await existing.userID, message: "already connected")
            case let phase:
                return AccountOutcome(
                    account: reference, ok: false, status: await existing.status,
                    message: "already \(Self.describe(phase)); wait for it, or disconnect it first")
            }
        }
        let session: Session
        do throws(ShellError) {
            let parameters = try await connectParameters(account, timeout: timeout, kickEnable: kickEnable)
            session = try await registry.makeSession(for: account, parameters: parameters)
        } catch {
            let status = router.book.status(of: reference)
            return AccountOutcome(account: reference, ok: false, status: status == .unknown ? nil : status, message: error.message)
        }
        guard wait else {
            // The call's end arrives as events (and in the book) like any later change. The
            // book must have seen the call start before the command ends: a `wait` or `expect`
            // after it would otherwise read the status the last call left (a refusal that
            // stopped the session, or the sign-out of a `disconnect`) as this call's. Every
            // command before this one flushed its events, so any change past `seen` is this call's.
            let book = router.book
            let seen = book.snapshot(of: reference)?.changeCount ?? 0
            let (changes, stop) = book.watch([reference], for: 5)
            await session.connect(completion: nil)
            func started() -> Bool { (book.snapshot(of: reference)?.changeCount ?? 0) > seen }
            if !started() {
                for await _ in changes where started() { break }
            }
            stop()
            return AccountOutcome(account: reference, ok: true, userID: account.userID, message: "started")
        }
        do {
            let userID = try await session.connect()
            // insecure is allowed, never silently: each connect says so.
            let overTLS = await session.connectedTLS != nil
            let warning = account.tls?.insecure == true && overTLS
                ? "warning: tls.insecure: the server's certificate was not verified" : nil
            return AccountOutcome(account: reference, ok: true, status: await session.status, userID: userID, message: warning)
        } catch {
            let status: ConnectionStatus? = if let status = error.status { status } else { await session.status }
            return AccountOutcome(account: reference, ok: false, status: status, code: error.code, message: error.description)
        }
    }

    /// The engine's parameters for `account`: its settings, the command's options, a token.
    private func connectParameters(_ account: Account, timeout: Double?, kickEnable: Bool) async throws(ShellError) -> ConnectParameters {
        var token: String?
        var source: IMEngine.TokenSource?
        switch account.tokenSource {
        case .literal(let secret):
            token = secret.value
        case .command(let command):
            source = .command(command)
        case .url(let url):
            source = .fetching(url, tls: account.tls)
        case .serverAPI:
            let profile = try context.profile(named: account.profile)
            guard let userID = account.userID else {
                throw ShellError("\(account.reference) has no userId to get a token for; add one to \(profile.file)", profileError: true)
            }
            source = .provider(registry.tokenProvider(for: profile, userID: userID))
        }
        let directory = registry.directory(of: account.reference)
        if let wrong = DataFiles.firstNonDirectory(in: directory, below: registry.dataDirectory) {
            throw ShellError("\(wrong) is not a directory (a symlink?); imsh writes only inside its data directory: remove it")
        }
        let seconds = timeout ?? Double(account.timeout)
        let profile = try context.profile(named: account.profile)
        var parameters = ConnectParameters(
            token: token, tokenSource: source, userID: account.userID,
            timeout: seconds > 0 ? .milliseconds(Int64(seconds * 1000)) : nil,
            reconnectKickEnable: kickEnable || account.reconnectKickEnable, deviceID: account.deviceID,
            platform: account.platform, heartbeat: account.heartbeat, proxy: account.proxy.map(Self.socksProxy),
            jitter: account.jitter, backgroundGrace: .seconds(account.backgroundGrace),
            dataDirectory: directory,
            tls: registry.server.tls(for: account, in: profile),
            label: account.reference.description)
        if profile.server == .embedded {
            // The engine first: it takes the data directory, where the embedded server keeps its files.
            _ = try await registry.engine(for: profile)
            // Web-platform accounts over WebSocket, as browsers must; the others as the server
            // lists itself now (after `server move`, the address it had first).
            parameters.servers = account.platform == .web
                ? try await registry.server.webServers(tls: profile.tls != nil) : try await registry.server.mqttServers(tls: profile.tls != nil)
        }
        if let proxy = await registry.links.address(of: account.reference) { parameters.servers = [proxy] }
        return parameters
    }

    func disconnect(_ selection: AccountSelection, disablePush: Bool) async throws(ShellError) -> CommandResult {
        let accounts = try await accounts(selection, sessionsOnly: true, allowEmpty: true)
        let outcomes = await forEach(accounts) { [self] account in
            guard let session = await registry.session(account.reference) else { return noSession(account) }
            let phase = await session.phase
            let before = await session.status
            await session.disconnect(disablePush: disablePush)
            let wasActive = phase.isActive
            return AccountOutcome(
                account: account.reference, ok: true, status: await session.status, userID: await session.userID,
                message: wasActive ? nil : "was not connected (\(before.name))")
        }
        return .outcomes(outcomes)
    }

    private static func socksProxy(_ proxy: ProxyAddress) -> SOCKS5Proxy {
        let credentials = proxy.username.map { SOCKS5Proxy.Credentials(username: $0, password: proxy.password?.value ?? "") }
        return SOCKS5Proxy(host: proxy.host, port: proxy.port, credentials: credentials)
    }

    /// A session's state in words, for messages.
    static func describe(_ phase: SessionState) -> String {
        switch phase {
        case .idle: return "idle"
        case .preparing: return "preparing (token, database)"
        case .connecting: return "connecting"
        case .waiting: return "waiting to reconnect"
        case .connected: return "connected"
        case .paused: return "paused without network"
        case .suspended: return "suspended in the background"
        case .signedOut: return "signed out"
        case .stopped(let termination): return "stopped (\(termination.status.name))"
        case .closed: return "closed"
        }
    }
}
