/// A token source the app supplies as code: the shell's server-API client, a test's issuer.
///
/// Fetched like a command or a URL (at connect when there is no token, and once after the
/// server refuses one), within the engine's token fetch timeout, so every source gives the
/// same statuses and codes.
public struct TokenProvider: Sendable, Equatable, CustomStringConvertible {
    /// Names the source in messages, such as `server API http://127.0.0.1:8080`.
    public let name: String
    let fetch: @Sendable () async throws -> String

    /// `fetch` returns a token, or throws why it has none; the error's description is shown.
    public init(name: String, fetch: @escaping @Sendable () async throws -> String) {
        self.name = name
        self.fetch = fetch
    }

    public static func == (lhs: TokenProvider, rhs: TokenProvider) -> Bool { lhs.name == rhs.name }

    public var description: String { name }
}
