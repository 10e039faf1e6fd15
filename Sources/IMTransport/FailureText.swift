/// A failure in words: what happened, and apart from it the hint saying what to check.
///
/// Hints are attached in one place (`description`, `joined`), so a message that gathers
/// several failures (every server of a list refused) says each hint once, at the end,
/// instead of once per failure.
public struct FailureText: Sendable, Equatable, CustomStringConvertible {
    /// What happened, without the hint.
    public var reason: String
    /// What to check, as a question or an instruction; nil when there is nothing to add.
    public var hint: String?

    public init(_ reason: String, hint: String? = nil) {
        self.reason = reason
        self.hint = hint
    }

    /// `reason (hint)`, or the reason alone.
    public var description: String { Self.attach(hint, to: reason) }

    /// The reasons joined by `separator`, then every distinct hint once, in order.
    public static func joined(_ failures: [FailureText], separator: String = "; ") -> String {
        var hints: [String] = []
        for hint in failures.compactMap(\.hint) where !hints.contains(hint) { hints.append(hint) }
        return attach(hints.isEmpty ? nil : hints.joined(separator: "; "), to: failures.map(\.reason).joined(separator: separator))
    }

    /// `hint` after `text`, in parentheses: the one way a hint is written.
    static func attach(_ hint: String?, to text: String) -> String {
        guard let hint, !hint.isEmpty else { return text }
        return "\(text) (\(hint))"
    }
}
