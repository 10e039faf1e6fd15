import IMEngine
import IMProfiles

/// What `expect` asserts of one account, and the seconds it may take (or must hold for).
///
/// Messages are matched against the account's received messages in arrival order, each
/// claimed by at most one expectation; statuses are read as `wait` reads them.
public struct Expectation: Equatable, Sendable, CustomStringConvertible {
    /// Which messages count: all of them, or those from one user, with one text or matching a pattern.
    public struct MessagePattern: Equatable, Sendable, CustomStringConvertible {
        public var from: String?
        /// The whole text, exactly.
        public var text: String?
        /// A regular expression found anywhere in the text (checked when parsed).
        public var regex: String?
        /// Only a message that came after every message the account's expectations claimed
        /// before counts (`--in-order`): a run of these checks the order messages came in.
        public var inOrder = false

        public init(from: String? = nil, text: String? = nil, regex: String? = nil, inOrder: Bool = false) {
            self.from = from
            self.text = text
            self.regex = regex
            self.inOrder = inOrder
        }

        public func matches(_ message: StoredMessage) -> Bool {
            if let from, message.peer != from { return false }
            if let text, message.text != text { return false }
            if let regex {
                guard let compiled = try? Regex(regex), message.text.contains(compiled) else { return false }
            }
            return true
        }

        /// ` from alice 'hi'`, or ` matching /h+i/`: what follows "a message".
        public var description: String {
            var words = ""
            if let from { words += " from \(from)" }
            if let text { words += " '\(text)'" }
            if let regex { words += " matching /\(regex)/" }
            if inOrder { words += " after those claimed before" }
            return words
        }
    }

    public enum Kind: Equatable, Sendable {
        /// A message arrives within the time (or arrived before and is not claimed yet).
        case message(MessagePattern)
        /// No unclaimed message of the pattern is there, nor arrives for the time.
        case noMessage(MessagePattern)
        /// The account is in the status or reaches it within the time; with the error code,
        /// and kicked by the device of `by` (the same user's login closest to the kick).
        case status(ConnectionStatus, code: ConnectErrorCode?, by: AccountReference?)
        /// The account is in the status and stays in it for the whole time.
        case stays(ConnectionStatus)
        /// The retries of the account's latest backoff schedule plan these waits (seconds), in
        /// order, and each next retry comes that long after the one before, within `tolerance`.
        case retries([Double], tolerance: Double)
        /// The account's local database was found damaged, moved aside and made anew (dbOpened
        /// with recreated) within the time, or before and not claimed by another such expectation.
        case databaseRecreated
    }

    public var kind: Kind
    /// `--within` for the positive forms, `--for` for the negative ones.
    public var seconds: Double

    /// How long a positive expectation waits unless `--within` says otherwise.
    public static let defaultWithin = 10.0
    /// How long `no message` watches unless `--for` says otherwise.
    public static let defaultFor = 3.0
    /// How far a retry may come from its planned wait unless `--tolerance` says otherwise, in seconds.
    public static let defaultTolerance = 0.1

    public init(_ kind: Kind, seconds: Double) {
        self.kind = kind
        self.seconds = seconds
    }

    /// What was expected, in words: `a message from alice 'hi' within 2 s`.
    public var description: String {
        let time = CommandExecutor.seconds(seconds)
        switch kind {
        case .message(let pattern):
            return "a message\(pattern) within \(time)"
        case .noMessage(let pattern):
            return "no message\(pattern) for \(time)"
        case let .status(status, code, by):
            var text = "\(status.name) (\(status.rawValue))"
            if let code { text += " with code \(code.rawValue)" }
            if let by { text += " by \(by)" }
            return text + " within \(time)"
        case .stays(let status):
            return "to stay \(status.name) (\(status.rawValue)) for \(time)"
        case let .retries(waits, tolerance):
            let listed = waits.map { CommandExecutor.seconds($0) }.joined(separator: ", ")
            return "retries after \(listed) (each within \(CommandExecutor.seconds(tolerance))) within \(time)"
        case .databaseRecreated:
            return "its database recreated within \(time)"
        }
    }
}
