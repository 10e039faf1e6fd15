import IMEngine
import IMProfiles

/// What `send` did: the message as stored, and whether the server acknowledged it in time.
public struct SentMessage: Sendable {
    public var account: AccountReference
    public var message: StoredMessage
    /// The server's refusal, when it refused (PUBACK reason code).
    public var rejection: String?

    public init(account: AccountReference, message: StoredMessage, rejection: String? = nil) {
        self.account = account
        self.message = message
        self.rejection = rejection
    }
}
