import IMHTTP

/// The `SCHEME://` prefix of server and proxy addresses; `HostPort` reads what follows.
enum URLScheme {
    /// The text after `scheme://`, with the scheme checked (case-insensitively) against `scheme`.
    static func rest(of text: String, scheme: String, form: String) throws(URLParseError) -> Substring {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw URLParseError("address is empty or has spaces, control or non-ASCII characters; expected \(form)")
        }
        guard let range = text.firstRange(of: "://") else { throw URLParseError("expected \(form)") }
        let given = text[..<range.lowerBound].lowercased()
        guard given == scheme else { throw URLParseError("unsupported scheme \(given); expected \(form)") }
        return text[range.upperBound...]
    }
}
