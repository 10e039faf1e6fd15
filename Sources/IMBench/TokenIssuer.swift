import IMProtocol
import IMServer
import IMHTTPClient

/// Gets login tokens for bench users: from the embedded server directly, over the server API,
/// or signed here with the app's secret (servers named by URL, whose API the bench does not know).
package enum TokenIssuer: Sendable {
    case backend(any ServerAPIBackend, appKey: String)
    case api(ServerAPIClient)
    case signed(appKey: String, secret: String)

    /// How many API calls run at once: enough to hide a round trip, few enough not to crowd the server.
    static let concurrency = 16

    /// A token for each of `users`, in order; `issued` runs after each one.
    func tokens(for users: [String], issued: @escaping @Sendable () -> Void) async throws(BenchError) -> [String] {
        do {
            return try await withThrowingTaskGroup(of: (Int, String).self) { group in
                var tokens = [String](repeating: "", count: users.count)
                var next = 0
                func add() {
                    let index = next, user = users[index]
                    next += 1
                    group.addTask {
                        let token = try await self.token(for: user)
                        issued()
                        return (index, token)
                    }
                }
                while next < min(Self.concurrency, users.count) { add() }
                while let (index, token) = try await group.next() {
                    tokens[index] = token
                    if next < users.count { add() }
                }
                return tokens
            }
        } catch let error as BenchError {
            throw error
        } catch {
            throw BenchError("cannot get a token: \(error)")
        }
    }

    private func token(for user: String) async throws -> String {
        switch self {
        case .backend(let backend, let appKey):
            return try await backend.issueToken(appKey: appKey, userID: user)
        case .api(let client):
            do {
                return try await client.issueToken(userID: user)
            } catch {
                throw BenchError("cannot get a token for \(user) from \(client.baseURL): \(error)")
            }
        case .signed(let appKey, let secret):
            return try Token.issue(appKey: appKey, secret: secret, userID: user, issuedAt: WallClock.milliseconds())
        }
    }
}
