import IMHTTP
import IMProfiles
import IMProtocol
import IMHTTPClient
import IMTransport

/// A profile's server, which the bench did not start: it can be measured, not restarted.
actor RemoteBenchServer: BenchServer {
    let appKey: String
    let servers: [ServerAddress]
    let placement = ServerPlacement.external
    private let profile: Profile
    private var apiLoops: EventLoopGroup?

    init(profile: Profile, servers: [ServerAddress]) {
        self.profile = profile
        self.appKey = profile.appKey
        self.servers = servers
    }

    /// A client of the profile's `api`, signed with its `appSecret`.
    func tokenIssuer() throws(BenchError) -> TokenIssuer {
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
        throw BenchError("profile \(profile.name)'s server was not started by imsh and cannot be restarted")
    }

    func bringBack() throws(BenchError) {
        try takeDown()
    }

    func shutdown() async {
        guard let loops = apiLoops.take() else { return }
        await BlockingCall.run { loops.shutdown() }
    }
}
