import IMProtocol

/// Decides which lines the history file may keep: never one holding a token or a secret.
public struct HistoryPolicy: Sendable {
    let redactor: SecretRedactor

    public init(redactor: SecretRedactor) {
        self.redactor = redactor
    }

    /// False for a line with a known secret (profile tokens and secrets, fetched tokens) or a
    /// word that reads as a login token.
    public func allows(_ line: String) -> Bool {
        guard !redactor.containsSecret(line) else { return false }
        let words = (try? CommandTokenizer.commands(in: line).flatMap(\.words))
            ?? line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        return !words.contains { word in
            word.split(whereSeparator: { "=:\"'".contains($0) }).contains { (try? TokenClaims.read(String($0))) != nil }
        }
    }
}
