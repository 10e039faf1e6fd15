import IMProcess
import IMProtocol
import IMTransport

/// What every bench sets up and tears down: descriptors, its directory, the server, the
/// sessions' engine, and the progress line that shows each phase.
package struct BenchStage: Sendable {
    let common: CommonOptions
    let directory: BenchDirectory
    package let server: any BenchServer
    let progress: ProgressLine
    /// How many session databases the engine keeps open between uses (`DescriptorBudget`).
    let openDatabases: Int?

    /// Reserves descriptors for `sessions`, then starts the server (the profile's, when given),
    /// runs `body` and tears everything down, whatever `body` did.
    /// `clientsInProcess` false: the sessions run in worker processes, each with its own budget.
    package static func run<T>(
        _ common: CommonOptions, sessions: Int, databases: Bool = true, clientsInProcess: Bool = true, profile: ProfileTarget? = nil,
        progress: ProgressLine,
        _ body: (BenchStage) async throws(BenchError) -> T
    ) async throws(BenchError) -> T {
        let inProcess = profile.map { $0.profile.server == .embedded } ?? (common.server == .embedded)
        let openDatabases = try DescriptorBudget(
            sessions: sessions, serverInProcess: inProcess, withDatabases: databases, clients: clientsInProcess).reserve()
        let directory = try BenchDirectory.make(common.data)
        defer { directory.release() }
        let server: any BenchServer
        do {
            server = try await progress.during("server", status: { "starting" }) { () async throws(BenchError) in
                if let profile { return try await profile.server(dataDirectory: directory.server) }
                switch common.server {
                case .embedded: return try await EmbeddedBenchServer.start(dataDirectory: directory.server)
                case .spawn: return try await SpawnedBenchServer.start(dataDirectory: directory.server)
                case .addresses(let list): return RemoteBenchServer(servers: list, appKey: common.app?.key ?? "", appSecret: common.app?.secret ?? "")
                }
            }
        }
        let stage = BenchStage(common: common, directory: directory, server: server, progress: progress, openDatabases: openDatabases)
        let outcome: Result<T, BenchError>
        do throws(BenchError) {
            outcome = .success(try await body(stage))
        } catch {
            outcome = .failure(error)
        }
        await server.shutdown()
        return try outcome.get()
    }

    /// `count` new users named `prefix0`... with tokens from the server.
    ///
    /// - Parameter tls: how they verify an `mqtts://` server (a profile's TLS settings).
    package func users(_ prefix: String, count: Int, tls: TLSClientConfiguration? = nil) async throws(BenchError) -> [BenchAccount] {
        let issuer = try await server.tokenIssuer()
        let issued = Counter()
        let users = try await progress.during("tokens", status: { "\(issued.value)/\(count) issued" }) { () async throws(BenchError) in
            try await BenchAccount.users(prefix, count: count, issuer: issuer, issued: { issued.increment() })
        }
        // A list of servers takes the sessions in turn; a profile's list is one failover list for all.
        let spread: [ServerAddress] = if case .addresses(let list) = common.server { list } else { [] }
        return users.enumerated().map { index, user in
            var user = user
            user.tls = tls
            if !spread.isEmpty {
                let first = index % spread.count
                user.server = spread[first]
                user.fallbacks = Array(spread[(first + 1)...] + spread[..<first])
            }
            return user
        }
    }

    /// `accounts`, each told its server (a list's, else this stage's): for worker processes,
    /// which start no server of their own.
    func pinned(_ accounts: [BenchAccount]) async -> [BenchAccount] {
        let server = await self.server.servers.first
        return accounts.map { account in
            var account = account
            account.server = account.server ?? server
            return account
        }
    }

    /// An engine with a session per account, its databases under `clients/`.
    func fleet(_ accounts: [BenchAccount], jitter: Double = 0) async throws(BenchError) -> SessionFleet {
        try SessionFleet(
            accounts: accounts, appKey: await server.appKey, servers: await server.servers,
            dataDirectory: directory.clients, threads: common.threads, timeout: common.timeout, jitter: jitter,
            openDatabases: openDatabases)
    }

    /// Connects the fleet's sessions (at most `rate` calls a second) and records how it went.
    func connect(_ fleet: SessionFleet, rate: Double? = nil) async -> ConnectRecorder {
        let recorder = ConnectRecorder(expected: fleet.sessions.count)
        let total = fleet.sessions.count
        await progress.during("connect", status: { recorder.progress(of: total) }) {
            await fleet.connectAll(rate: rate, recorder: recorder)
        }
        return recorder
    }

    /// A spawned server's memory and descriptors now; nil for a server in this process or elsewhere.
    package func serverStatus() async -> ProcessStatus? {
        guard case .spawned(let pid) = await server.placement else { return nil }
        return ProcessStatus.of(pid: pid)
    }
}
