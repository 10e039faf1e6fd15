import IMEngine
import IMProfiles

extension CommandExecutor {
    /// How many of the account's latest statuses and messages a failed expectation shows.
    static let evidenceCount = 5

    /// What came instead, for a failed expectation: the account's latest statuses and
    /// messages in this run (a claimed message marked as such).
    func evidence(_ account: AccountReference) -> String {
        let changes = book.changes(of: account, since: 0).suffix(Self.evidenceCount)
        let messages = book.received.recent(account, Self.evidenceCount)
        let statusText = changes.isEmpty ? "none" : changes.map(Self.describe).joined(separator: ", ")
        let messageText = messages.isEmpty
            ? "none"
            : messages.map { Self.describe($0.message) + ($0.claimed ? " (claimed by an earlier expect)" : "") }.joined(separator: ", ")
        return "recent statuses: \(statusText); recent messages: \(messageText)"
    }

    /// `from alice 'hi' at 12:00:01.234`, the text made safe for a terminal.
    static func describe(_ message: StoredMessage) -> String {
        "from \(TextRenderer.visible(message.peer)) '\(TextRenderer.visible(message.text))' at \(clock(message.sentAt))"
    }

    /// `kickedOfflineByOtherClient (6) code 31010 (other-device-login) at 12:00:01.234`.
    static func describe(_ change: StatusChange) -> String {
        var text = "\(change.status.name) (\(change.status.rawValue))"
        if let code = change.code { text += " code \(code.rawValue)" }
        if !change.detail.isEmpty { text += " (\(TextRenderer.visible(change.detail)))" }
        return text + " at \(clock(change.at))"
    }

    /// `HH:MM:SS.mmm` in local time: expectations are about short spans.
    static func clock(_ milliseconds: Int64) -> String {
        let fraction = String(milliseconds % 1000)
        return TextRenderer.clock(milliseconds) + "." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
