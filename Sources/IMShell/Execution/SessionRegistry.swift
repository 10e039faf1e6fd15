import Foundation
import IMEngine
import IMHTTP
import IMHTTPClient
import IMProfiles
import IMThreads
import IMTransport
import IMProtocol
import IMServer

/// The shell's engines (one per profile), sessions (one per account) and API clients.
///
/// Sessions are made on an account's first connect and remade on a later connect once the
/// earlier one has ended, so each connect runs with the parameters it was given. Each account
/// keeps its database in `DATA/PROFILE/ACCOUNT`: one database file serves one session at a
/// time, and two devices of one user are two sessions.
actor SessionRegistry {
    let profiles: ProfileSet
    let dataDirectory: String
    let router: EventRouter
    let server: EmbeddedServerHost
    /// The fault proxies of `link`, in front of some accounts.
    let links: LinkProxies
    private var engines: [String: Task<SessionEngine, any Error>] = [:]
    private var sessions: [AccountReference: Session] = [:]
    /// Accounts whose simulated network is down (`net ACCOUNT down`), session or not.
    private var networkDown: Set<AccountReference> = []
    private var apiGroup: EventLoopGroup?
    private var isShutDown = false
    /// Taken before the first engine or server starts, held until the process ends.
    private var dataLock: DataLock?

    init(profiles: ProfileSet, dataDirectory: String, router: EventRouter, seed: UInt64) {
        links = LinkProxies(seed: seed)
        self.profiles = profiles
        self.dataDirectory = dataDirectory
        self.router = router
        server = EmbeddedServerHost(profiles: profiles.profiles, dataDirectory: "\(dataDirectory)/server")
    }

    /// Where the account's local database lives.
    nonisolated func directory(of account: AccountReference) -> String {
        Self.directory(of: account, in: dataDirectory)
    }

    /// Where the account's local database lives under `dataDirectory` (`imsh test` reads a
    /// scenario's there after its imsh has ended).
    static func directory(of account: AccountReference, in dataDirectory: String) -> String {
        "\(dataDirectory)/\(account.profile ?? "")/\(account.account)"
    }

    // MARK: Sessions

    func session(_ account: AccountReference) -> Session? {
        sessions[account]
    }

    /// The accounts of `profile` that have a session, in the profile's order.
    func accountsWithSessions(inProfile name: String) -> [AccountReference] {
        let order = profiles.profile(named: name)?.accounts.map(\.reference) ?? []
        return order.filter { sessions[$0] != nil }
    }

    /// Every account with a session, profile by profile.
    func allAccountsWithSessions() -> [AccountReference] {
        profiles.profiles.flatMap { accountsWithSessions(inProfile: $0.name) }
    }

    /// Closes the account's session, if it has one, as an app's process ends: its database
    /// closes too; its next `connect` makes a new session.
    func closeSession(_ account: AccountReference) async {
        guard let session = sessions.removeValue(forKey: account) else { return }
        await session.close()
    }

    /// A new session for `account`, replacing (and closing) the one it had.
    func makeSession(for account: Account, parameters: ConnectParameters) async throws(ShellError) -> Session {
        guard let profile = profiles.profile(named: account.profile) else {
            throw ShellError("profile \(account.profile) did not load", profileError: true)
        }
        let engine = try await engine(for: profile)
        let reference = account.reference
        if let old = sessions[reference] {
            // The same settings again: the ended session connects anew, its database still open.
            switch await old.phase {
            case .idle, .signedOut, .stopped: if old.parameters == parameters { return old }
            default: break
            }
            sessions[reference] = nil
            await old.close()
        }
        let session = engine.makeSession(parameters)
        router.register(session.id, as: reference)
        if networkDown.contains(reference) { await session.simulateNetwork(.down) }
        sessions[reference] = session
        return session
    }

    /// Remembers the account's simulated network for the sessions it gets later.
    func setSimulatedNetwork(_ event: NetworkEvent, for account: AccountReference) {
        if event == .down {
            networkDown.insert(account)
        } else {
            networkDown.remove(account)
        }
    }

    /// Returns once every event the sessions published so far is recorded and shown, so that
    /// the events a command caused are printed before its result.
    func flushEvents() async {
        await router.flush()
    }

    // MARK: Engines and the server API

    /// The profile's engine, started on first use (and the embedded server with it).
    func engine(for profile: Profile) async throws(ShellError) -> SessionEngine {
        guard !isShutDown else { throw ShellError("the shell is shutting down") }
        try lockData()
        let task: Task<SessionEngine, any Error>
        if let existing = engines[profile.name] {
            task = existing
        } else {
            let server = self.server
            let directory = "\(dataDirectory)/\(profile.name)"
            let callbacks = DispatchQueue(label: "imsh.events.\(profile.name)")
            let hub = router.hub
            task = Task {
                let servers: [ServerAddress]
                switch profile.server {
                case .embedded:
                    servers = try await server.mqttServers(tls: profile.tls != nil)
                case .addresses(let addresses):
                    servers = addresses
                }
                var configuration = EngineConfiguration(
                    appKey: profile.appKey, servers: servers, dataDirectory: directory, callbacks: .queue(callbacks),
                    eventLoopThreads: 1)
                // imserver (embedded) always says DISCONNECT 0x8E on a takeover; a profile's own
                // servers may be stock brokers that close a taken-over connection silently.
                if case .addresses = profile.server { configuration.takeoverLimit = TakeoverSuspicion.defaultLimit }
                return try SessionEngine(configuration, hub: hub)
            }
            engines[profile.name] = task
        }
        do {
            return try await task.value
        } catch {
            engines[profile.name] = nil
            if let error = error as? ShellError { throw error }
            throw ShellError("the engine for profile \(profile.name) cannot start: \(error)")
        }
    }

    /// A client of the profile's server API: the embedded server's, or the profile's `api`.
    func apiClient(for profile: Profile) async throws(ShellError) -> ServerAPIClient {
        let base: HTTPURL
        let secret: Secret
        switch profile.server {
        case .embedded:
            try lockData()
            let running = try await server.running()
            guard let known = server.secret(forAppKey: profile.appKey) else {
                throw ShellError("the embedded server holds no app \(profile.appKey)")
            }
            base = HTTPURL(host: running.apiAddress.host, port: running.apiAddress.port)
            secret = known
        case .addresses:
            guard let api = profile.api else {
                throw ShellError(
                    "profile \(profile.name) has no api to call; add \"api\": \"http://HOST:PORT\" to \(profile.file)",
                    profileError: true)
            }
            guard let appSecret = profile.appSecret else {
                throw ShellError(
                    "profile \(profile.name) has no appSecret to sign server API calls with; add it to \(profile.file) (development apps only)",
                    profileError: true)
            }
            base = api
            secret = appSecret
        }
        return ServerAPIClient(baseURL: base, appKey: profile.appKey, appSecret: secret, loop: try apiLoop(), tls: profile.tls)
    }

    /// Tokens for `userID` from the profile's server API, fetched by the engine like any token
    /// source: at connect, and once more after the server refuses one.
    nonisolated func tokenProvider(for profile: Profile, userID: String) -> TokenProvider {
        TokenProvider(name: "the server API of profile \(profile.name)") {
            // The embedded server is in this process: its backend issues the token the API
            // would, without a TCP connection and an HTTP exchange per account.
            if profile.server == .embedded {
                try await self.lockData()
                let running: EmbeddedServer
                do throws(ShellError) {
                    running = try await self.server.running()
                } catch {
                    // Stopped ('server stop') or not starting: as an API that does not answer, retried.
                    throw TokenProviderFailure(error.message, condition: .unavailable)
                }
                do {
                    return try await running.backend.issueToken(appKey: profile.appKey, userID: userID)
                } catch let error as ServerError {
                    throw TokenProviderFailure(error.description, condition: error.tokenCondition)
                }
            }
            let client = try await self.apiClient(for: profile)
            do throws(ServerAPIError) {
                return try await client.issueToken(userID: userID)
            } catch {
                throw TokenProviderFailure(error.description, condition: error.tokenCondition)
            }
        }
    }

    private func lockData() throws(ShellError) {
        if dataLock == nil { dataLock = try DataLock.acquire(dataDirectory) }
    }

    private func apiLoop() throws(ShellError) -> EventLoop {
        if let apiGroup { return apiGroup.next() }
        do {
            let group = try EventLoopGroup(threads: 1, name: "imsh-api")
            apiGroup = group
            return group.next()
        } catch {
            throw ShellError("cannot start the server API client: \(error)")
        }
    }

    // MARK: Shutting down

    /// Disconnects every session, stops the engines, the embedded server and the API client.
    /// Returns how many sessions were connected or connecting.
    @discardableResult
    func shutdown() async -> Int {
        isShutDown = true
        var active = 0
        for session in sessions.values where await session.phase.isActive { active += 1 }
        sessions = [:]
        for task in engines.values {
            if let engine = try? await task.value { await engine.shutdown() }
        }
        engines = [:]
        await links.stopAll()
        await server.stop()
        if let group = apiGroup.take() {
            // Joining the loop's thread blocks: not on the cooperative pool.
            await BlockingCall.run { group.shutdown() }
        }
        return active
    }
}
