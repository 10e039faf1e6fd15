/// imsh's exit statuses, and the tally a script keeps to choose one.
public struct ExitStatus: Sendable, Equatable {
    public static let success: Int32 = 0
    public static let commandFailed: Int32 = 1
    public static let usage: Int32 = 2
    public static let profileError: Int32 = 3

    public private(set) var sawUsageError = false
    public private(set) var sawProfileError = false
    public private(set) var sawFailure = false

    public init(profileErrorsAtStart: Bool = false) {
        sawProfileError = profileErrorsAtStart
    }

    public mutating func record(_ result: CommandResult) {
        switch result.outcome {
        case .ok: return
        case .failed: break
        case .usageError: sawUsageError = true
        case .profileError: sawProfileError = true
        }
        sawFailure = true
    }

    /// 2 after a usage error, else 3 after a profile error, else 1 after a failure, else 0.
    public var code: Int32 {
        if sawUsageError { return Self.usage }
        if sawProfileError { return Self.profileError }
        return sawFailure ? Self.commandFailed : Self.success
    }
}
