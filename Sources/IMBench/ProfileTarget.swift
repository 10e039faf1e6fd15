import IMEngine
import IMProfiles
import IMServer

/// A profile as a bench target: its server (embedded or its addresses) and its accounts.
package struct ProfileTarget: Sendable {
    let profile: Profile

    /// Loads `name` from the profile directory (`--profiles`, `$IMSH_PROFILES`, ./profiles, ~/.config).
    static func load(_ name: String, directory: String?) throws(BenchError) -> ProfileTarget {
        let resolved = ProfileDirectory.resolve(flag: directory)
        let set = ProfileLoader.load(directory: resolved.path)
        guard let profile = set.profile(named: name) else {
            let problems = set.diagnostics.filter { $0.severity == .error }.map { "\($0)" }
            let why = set.failed.contains(name) ? "did not load: \(problems.joined(separator: "; "))" : "is not in \(resolved.path)"
            throw BenchError("--profile \(name): the profile \(why)")
        }
        return ProfileTarget(profile: profile)
    }

    /// The server the profile names: started in this process when it is `embedded`.
    func server(dataDirectory: String) async throws(BenchError) -> any BenchServer {
        switch profile.server {
        case .embedded:
            let secret = profile.appSecret?.value ?? AppSettings.development.appSecret
            let app = AppSettings(appKey: profile.appKey, appSecret: secret, clientControlsKickPolicy: true)
            return try await EmbeddedBenchServer.start(dataDirectory: dataDirectory, app: app)
        case .addresses(let addresses):
            return RemoteBenchServer(profile: profile, servers: addresses)
        }
    }

    /// The profile's accounts, at most `limit`; tokens of server-API accounts are fetched now.
    func accounts(limit: Int?, dataDirectory: String, server: any BenchServer) async throws(BenchError) -> [BenchAccount] {
        let chosen = profile.accounts.prefix(limit ?? profile.accounts.count)
        var accounts: [BenchAccount] = []
        var issuer: TokenIssuer?
        for account in chosen {
            var bench = BenchAccount(
                userID: account.userID, deviceID: account.deviceID, dataDirectory: "\(dataDirectory)/\(account.name)",
                tls: account.tls)
            switch account.tokenSource {
            case .literal(let secret): bench.token = secret.value
            case .command(let command): bench.tokenSource = .command(command)
            case .url(let url): bench.tokenSource = .fetching(url, tls: account.tls)
            case .serverAPI:
                guard let user = account.userID else {
                    throw BenchError("\(account.reference) has no userId to get a token for; add one to \(profile.file)")
                }
                if issuer == nil { issuer = try await server.tokenIssuer() }
                bench.token = try await issuer?.tokens(for: [user], issued: {}).first
            }
            accounts.append(bench)
        }
        return accounts
    }
}
