/// What `require` asks of the active profile; a scenario without it is skipped, not failed.
public enum Requirement: String, Sendable, Equatable, CaseIterable {
    /// The server API can be called (block, expire-token, deactivate, ...): the embedded
    /// server, or a profile with `api` and `appSecret`.
    case api
    /// The profile runs on the embedded server, which `server` can stop and start.
    case embedded
}
