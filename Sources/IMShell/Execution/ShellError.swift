/// Why a command could not do its work, in words a person can act on.
public struct ShellError: Error, Sendable, CustomStringConvertible {
    public var message: String
    /// The cause is a profile that did not load or lacks what the command needs.
    public var isProfileError: Bool

    public init(_ message: String, profileError: Bool = false) {
        self.message = message
        isProfileError = profileError
    }

    public var description: String { message }
}
