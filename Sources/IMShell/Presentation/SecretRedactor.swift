import IMProfiles
import IMProtocol
import Synchronization

/// Replaces every known secret in text bound for the screen, a file or a pipe with its
/// redacted hint, so a secret never leaves the process in output.
///
/// The secrets are the profiles' literal tokens, app secrets and proxy passwords; tokens the
/// engine fetches stay inside it, and any word of the contract's token form is redacted
/// wherever it comes from (a token command's text, an error message). A line costs time in
/// proportion to its length whatever the number of secrets: secrets are looked up by their
/// first `minimumLength` bytes in a hash table, at each position of the line.
public final class SecretRedactor: Sendable {
    /// Shorter values are not searched for: they would match ordinary words. `Secret` already
    /// keeps them out of everything the shell formats itself.
    static let minimumLength = 6

    private struct Entry {
        let bytes: [UInt8]
        let redacted: [UInt8]
    }

    /// Secrets by their first `minimumLength` bytes, longest first, so a secret that contains
    /// another is replaced whole.
    private let table = Mutex<[UInt64: [Entry]]>([:])

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
        let bytes = Array(secret.value.utf8)
        guard bytes.count >= Self.minimumLength else { return }
        let entry = Entry(bytes: bytes, redacted: Array(secret.redacted.utf8))
        table.withLock { table in
            var list = table[Self.key(bytes, at: 0), default: []]
            guard !list.contains(where: { $0.bytes == bytes }) else { return }
            list.append(entry)
            list.sort { $0.bytes.count > $1.bytes.count }
            table[Self.key(bytes, at: 0)] = list
        }
    }

    /// Whether `text` holds a registered secret.
    public func containsSecret(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return table.withLock { table in
            guard !table.isEmpty, bytes.count >= Self.minimumLength else { return false }
            for start in 0...(bytes.count - Self.minimumLength) where Self.match(table, bytes, at: start) != nil {
                return true
            }
            return false
        }
    }

    /// `text` with each registered secret and each token replaced by `Secret.redacted`.
    public func redact(_ text: String) -> String {
        let bytes = Array(text.utf8)
        let replaced = table.withLock { table -> [UInt8]? in
            guard !table.isEmpty, bytes.count >= Self.minimumLength else { return nil }
            var output: [UInt8] = []
            var copied = 0
            var index = 0
            while index + Self.minimumLength <= bytes.count {
                guard let entry = Self.match(table, bytes, at: index) else {
                    index += 1
                    continue
                }
                output += bytes[copied..<index]
                output += entry.redacted
                index += entry.bytes.count
                copied = index
            }
            guard copied > 0 else { return nil }
            output += bytes[copied...]
            return output
        }
        let result = replaced.map { String(decoding: $0, as: UTF8.self) } ?? text
        return Self.redactingTokens(in: result)
    }

    private static func key(_ bytes: [UInt8], at start: Int) -> UInt64 {
        var key: UInt64 = 0
        for offset in 0..<minimumLength { key = key << 8 | UInt64(bytes[start + offset]) }
        return key
    }

    private static func match(_ table: [UInt64: [Entry]], _ bytes: [UInt8], at start: Int) -> Entry? {
        guard let candidates = table[key(bytes, at: start)] else { return nil }
        return candidates.first { entry in
            start + entry.bytes.count <= bytes.count && bytes[start..<(start + entry.bytes.count)].elementsEqual(entry.bytes)
        }
    }
}
