import IMEngine
import IMProtocol
import IMTransport

/// One session a bench connects: who it is and how it logs in.
package struct BenchAccount: Sendable {
    /// The user id; nil reads it from the token.
    package var userID: String?
    package var deviceID: String
    package var token: String?
    var tokenSource: IMEngine.TokenSource?
    /// A data directory of its own (a profile's accounts may share a user); nil uses the engine's.
    var dataDirectory: String?
    /// How an `mqtts://` server is verified (a profile account's `tls`).
    var tls: TLSClientConfiguration?
    /// The one server this session uses (a `--server` list spreads sessions); nil: the engine's.
    var server: ServerAddress?
    /// The other servers of a `--server` list, tried after `server` when it is gone (nodes of one service).
    var fallbacks: [ServerAddress] = []

    /// `count` new users named `prefix0`, `prefix1`, ..., with tokens from `issuer`.
    static func users(
        _ prefix: String, count: Int, issuer: TokenIssuer, issued: @escaping @Sendable () -> Void
    ) async throws(BenchError) -> [BenchAccount] {
        let users = (0..<count).map { "\(prefix)\($0)" }
        let tokens = try await issuer.tokens(for: users, issued: issued)
        return zip(users, tokens).map { user, token in
            BenchAccount(userID: user, deviceID: "\(user)-bench", token: token)
        }
    }

    /// The engine's parameters for this account.
    func parameters(timeout: Duration, jitter: Double) -> ConnectParameters {
        var parameters = ConnectParameters(
            token: token, tokenSource: tokenSource, userID: userID, timeout: timeout, deviceID: deviceID,
            jitter: jitter, dataDirectory: dataDirectory, tls: tls)
        parameters.servers = server.map { [$0] + fallbacks }
        return parameters
    }
}
