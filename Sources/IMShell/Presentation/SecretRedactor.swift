import IMProfiles
import IMHTTP
import IMProtocol
import Synchronization

/// Replaces every known secret in text bound for the screen, a file or a pipe with its
/// redacted hint, so a secret never leaves the process in output.
///
/// The secrets are the profiles' literal tokens, app secrets, proxy passwords and the query
/// values of token URLs; tokens the
/// engine fetches stay inside it, and any word of the contract's token form is redacted
/// wherever it comes from (a token command's text, an error message). A line costs time in
/// proportion to its length whatever the number of secrets: one automaton over all of them
/// (`SecretAutomaton`) finds them in a single pass.
public final class SecretRedactor: Sendable {
    /// Shorter values are not searched for: they would match ordinary words. `Secret` already
    /// keeps them out of everything the shell formats itself.
    static let minimumLength = 6

    /// The secrets (bytes and their redacted hints), and the automaton over them, rebuilt on
    /// the first use after a secret is added.
    private struct Table {
        var secrets: [[UInt8]] = []
        var hints: [[UInt8]] = []
        var known: Set<[UInt8]> = []
        var automaton: SecretAutomaton?

        mutating func current() -> SecretAutomaton? {
            guard !secrets.isEmpty else { return nil }
            if automaton == nil { automaton = SecretAutomaton(secrets) }
            return automaton
        }
    }

    private let table = Mutex(Table())

    public init() {}

    /// Registers the secrets of every profile in `set`.
    public convenience init(profiles set: ProfileSet) {
        self.init()
        for profile in set.profiles {
            if let secret = profile.appSecret { add(secret) }
            for account in profile.accounts {
                switch account.tokenSource {
                case .literal(let token): add(token)
                // A token URL's query often carries a key: its values are secrets too.
                case .url(let url): url.queryValues.forEach { add(Secret($0)) }
                default: break
                }
                if let password = account.proxy?.password { add(password) }
            }
        }
    }

    public func add(_ secret: Secret) {
        let bytes = Array(secret.value.utf8)
        guard bytes.count >= Self.minimumLength else { return }
        table.withLock { table in
            guard table.known.insert(bytes).inserted else { return }
            table.secrets.append(bytes)
            table.hints.append(Array(secret.redacted.utf8))
            table.automaton = nil
        }
    }

    /// Whether `text` holds a registered secret.
    public func containsSecret(_ text: String) -> Bool {
        guard let automaton = table.withLock({ $0.current() }) else { return false }
        return !automaton.matches(in: Array(text.utf8)).isEmpty
    }

    /// `text` with each registered secret and each token replaced by `Secret.redacted`.
    public func redact(_ text: String) -> String {
        let (automaton, hints) = table.withLock { ($0.current(), $0.hints) }
        guard let automaton else { return Self.redactingTokens(in: text) }
        let bytes = Array(text.utf8)
        let matches = automaton.replacements(in: bytes)
        guard !matches.isEmpty else { return Self.redactingTokens(in: text) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var copied = 0
        for match in matches {
            output += bytes[copied..<match.start]
            output += hints[match.pattern]
            copied = match.start + automaton.patterns[match.pattern].count
        }
        output += bytes[copied...]
        return Self.redactingTokens(in: String(decoding: output, as: UTF8.self))
    }
}
