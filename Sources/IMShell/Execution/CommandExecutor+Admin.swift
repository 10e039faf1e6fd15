import IMHTTPClient
import IMProfiles

extension CommandExecutor {
    /// Runs a server API call on the account's user: kick, block, unblock, expire-token.
    func admin(
        _ reference: AccountReference, done: String,
        _ call: @escaping @Sendable (ServerAPIClient, String) async throws(ServerAPIError) -> Void
    ) async throws(ShellError) -> CommandResult {
        let account = try context.account(reference)
        let profile = try context.profile(named: account.profile)
        let knownUser: String? = if let user = account.userID { user } else { await registry.session(account.reference)?.userID }
        guard let user = knownUser else {
            throw ShellError("the user id of \(account.reference) is unknown: add userId to \(profile.file), or connect it once")
        }
        let client = try await registry.apiClient(for: profile)
        do {
            try await call(client, user)
        } catch {
            return .outcomes([AccountOutcome(account: account.reference, ok: false, userID: user, message: error.description)])
        }
        return .outcomes([AccountOutcome(account: account.reference, ok: true, userID: user, message: "user \(user) \(done)")])
    }
}
