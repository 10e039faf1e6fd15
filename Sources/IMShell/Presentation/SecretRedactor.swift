import IMProfiles
import IMProtocol
import Synchronization

/// Replaces every known secret in text bound for the screen, a file or a pipe with its
/// redacted hint, so a token never leaves the process in output.
///
/// Secrets are registered as they become known: the profiles' tokens, app secrets and proxy
/// passwords at start, tokens fetched from the server API when they arrive. Words of the
/// contract's token form are redacted too, wherever they come from (a token command's text,
/// an error message).
public final class SecretRedactor: Sendable {
    /// Shorter values are not searched for: they would match ordinary words. `Secret` already
    /// keeps them out of everything the shell formats itself.
    static let minimumLength = 6

    private let secrets = Mutex<[String]>([])

    public init() {}

    /// Registers the secrets of every profile in `set`.
    public convenience init(profiles set: ProfileSet) {
        self.init()
        for profile in set.profiles {
            if let secret = profile.appSecret { add(secret) }
            for account in profile.accounts {
                if case .literal(let token) = account.tokenSource { add(token) }
                if let password = account.proxy?.password { add(password) }
            }
        }
    }

    public func add(_ secret: Secret) {
        guard secret.value.count >= Self.minimumLength else { return }
        secrets.withLock { list in
            guard !list.contains(secret.value) else { return }
            list.append(secret.value)
            // Longest first, so a secret that contains another is replaced whole.
            list.sort { $0.count > $1.count }
        }
    }

    /// Whether `text` holds a registered secret.
    public func containsSecret(_ text: String) -> Bool {
        secrets.withLock { $0.contains { text.contains($0) } }
    }

    /// `text` with each registered secret and each token replaced by `Secret.redacted`.
    public func redact(_ text: String) -> String {
        let list = secrets.withLock { $0 }
        var result = text
        for secret in list where result.contains(secret) {
            result = result.replacing(secret, with: Secret(secret).redacted)
        }
        return Self.redactingTokens(in: result)
    }

    /// The shortest text that can be a token: a payload of the five claims and a signature.
    static let minimumTokenLength = 60

    /// `text` with every word that reads as a login token (`TokenClaims`) redacted.
    static func redactingTokens(in text: String) -> String {
        guard text.utf8.count >= minimumTokenLength, text.contains(".") else { return text }
        var result = ""
        var word = ""
        func flush() {
            let isToken = word.utf8.count >= minimumTokenLength && (try? TokenClaims.read(word)) != nil
            result += isToken ? Secret(word).redacted : word
            word = ""
        }
        for character in text {
            if character.isASCII, character.isLetter || character.isNumber || "-_.".contains(character) {
                word.append(character)
            } else {
                flush()
                result.append(character)
            }
        }
        flush()
        return result
    }
}
