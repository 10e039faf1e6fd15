import IMHTTP
import IMProfiles
import IMProtocol
import IMHTTPClient
import IMThreads
import IMTransport

/// Servers the bench did not start, a profile's or a `--server` list: they can be measured,
/// not restarted.
actor RemoteBenchServer: BenchServer {
    let appKey: String
    let servers: [ServerAddress]
    let placement: ServerPlacement
    /// nil: a `--server` list, whose tokens are signed here with `appSecret`.
    private let profile: Profile?
    private let appSecret: String?
    private var apiLoops: EventLoopGroup?

    init(profile: Profile, servers: [ServerAddress]) {
        self.profile = profile
        self.appKey = profile.appKey
        self.servers = servers
        placement = .external
        appSecret = nil
    }

    init(servers: [ServerAddress], appKey: String, appSecret: String) {
        profile = nil
        self.appKey = appKey
        self.appSecret = appSecret
        self.servers = servers
        placement = .listed
    }

    /// Tokens signed here (a list), else a client of the profile's `api`, signed with its `appSecret`.
    func tokenIssuer() throws(BenchError) -> TokenIssuer {
        guard let profile else { return .signed(appKey: appKey, secret: appSecret ?? "") }
        guard let api = profile.api, let secret = profile.appSecret else {
            throw BenchError("profile \(profile.name) has no api and appSecret to create users with; add them to \(profile.file), or accounts with tokens")
        }
        let loops: EventLoopGroup
        if let apiLoops {
            loops = apiLoops
        } else {
            do {
                loops = try EventLoopGroup(threads: 1, name: "imsh-bench-api")
            } catch {
                throw BenchError("cannot start the server API client: \(error)")
            }
            apiLoops = loops
        }
        return .api(ServerAPIClient(baseURL: api, appKey: profile.appKey, appSecret: secret, loop: loops.next()))
    }

    func takeDown() throws(BenchError) {
        let which = profile.map { "profile \($0.name)'s server was" } ?? "\(servers.map(\.url).joined(separator: ", ")) were"
        throw BenchError("\(which) not started by imsh and cannot be restarted")
    }

    func bringBack() throws(BenchError) {
        try takeDown()
    }

    func shutdown() async {
        guard let loops = apiLoops.take() else { return }
        await BlockingCall.run { loops.shutdown() }
    }
}
