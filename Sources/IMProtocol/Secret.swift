/// A token, app secret or proxy password: a string that prints only as a redacted hint.
///
/// `description`, `debugDescription` and the mirror all show `redacted`, so interpolating a
/// profile or account into a message, log or `dump` never reveals the secret; read `value`
/// only where the secret is used (CONNECT, signing).
public struct Secret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Values shorter than this are shown as "…" alone, so a hint never gives away most of one.
    public static let minimumLengthForHint = 12

    /// The secret itself.
    public let value: String

    public init(_ value: String) {
        self.value = value
    }

    /// The first 4 characters and "…" (`eyJ2…`), or "…" alone for a value shorter than 12 characters.
    public var redacted: String {
        value.count >= Self.minimumLengthForHint ? "\(value.prefix(4))…" : "…"
    }

    public var description: String { redacted }
    public var debugDescription: String { "Secret(\(redacted))" }
    public var customMirror: Mirror { Mirror(self, children: ["redacted": redacted]) }
}
