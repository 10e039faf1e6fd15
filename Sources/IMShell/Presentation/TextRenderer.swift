import IMConfig
import IMEngine
import IMProfiles
import IMTimeline
#if canImport(Glibc)
import Glibc
#endif

/// Renders results and events as text for people, with colour when the style allows.
public struct TextRenderer: Sendable {
    public var style: TerminalStyle

    public init(style: TerminalStyle = .plain) {
        self.style = style
    }

    /// The result's text, lines joined by newlines; empty when there is nothing to show.
    public func render(_ result: CommandResult) -> String {
        var lines = body(result.output)
        if !result.ok, let error = result.error, !showsOwnError(result) {
            lines.append((result.location.map { "\($0): " } ?? "") + style.red("error: ") + error)
        }
        return lines.joined(separator: "\n")
    }

    /// One line for an event, such as `12:00:01 dev/alice-phone kickedOfflineByOtherClient (6) …`.
    public func render(_ event: ShellEvent) -> String {
        let head = "\(style.dim(Self.clock(event.at))) \(style.cyan(event.account.description))"
        switch event.kind {
        case .status(let change):
            return "\(head) \(statusChange(change))"
        case .message(let message):
            return "\(head) \(style.bold("message from \(Self.visible(message.peer))")): \(Self.visible(message.text))"
        case let .databaseProblem(_, movedAside, error):
            if let error { return "\(head) \(style.red("dbOpened failed")): \(error)" }
            let moved = movedAside.first.map { " to \($0)" } ?? ""
            return "\(head) \(style.yellow("dbOpened: recreated")) (the damaged database was moved aside\(moved))"
        case let .retry(attempt, delay, reason):
            let wait = Self.seconds(delay)
            return "\(head) \(style.status(.connecting)), attempt \(attempt) in \(wait)" + (reason.isEmpty ? "" : style.dim(": \(reason)"))
        case .gap(let count):
            return "\(head) \(style.yellow("\(count) events not shown")): the output fell behind; the messages are in the database (history, log)"
        }
    }

    /// `FILE:LINE:COL: error: FIELD: REASON`, the severity coloured.
    public func render(_ diagnostic: ConfigDiagnostic) -> String {
        let text = diagnostic.description
        let marker = "\(diagnostic.severity.rawValue):"
        let painted = diagnostic.severity == .error ? style.red(marker) : style.yellow(marker)
        return text.replacing(marker, with: painted, maxReplacements: 1)
    }

    /// Whether the body already says why each account failed.
    private func showsOwnError(_ result: CommandResult) -> Bool {
        if case .outcomes(let outcomes) = result.output { return !outcomes.isEmpty }
        return false
    }

    /// `status (n)`, with the error code and the detail when there are.
    func statusChange(_ change: StatusChange) -> String {
        var text = style.status(change.status)
        if let code = change.code { text += ", " + style.red("error \(code.rawValue) \(code.name)") }
        if !change.detail.isEmpty { text += style.dim(": \(Self.visible(change.detail))") }
        return text
    }

    private func body(_ output: CommandOutput) -> [String] {
        switch output {
        case .none:
            return []
        case .help(let help):
            return help.map(self.help) ?? overview()
        case .profiles(let report):
            return profiles(report)
        case .activeProfile(let name):
            return ["active profile: \(style.bold(name))"]
        case let .accounts(profile, rows):
            return accounts(profile: profile, rows)
        case .outcomes(let outcomes):
            return self.outcomes(outcomes)
        case let .status(rows, detailed):
            return detailed ? rows.flatMap(statusDetail) : statusTable(rows)
        case .sent(let sent):
            return [self.sent(sent)]
        case let .history(account, peer, messages):
            return history(account: account, peer: peer, messages)
        case let .connectionLog(account, entries):
            guard !entries.isEmpty else { return ["\(account): the connection log is empty"] }
            return ["connection log of \(style.cyan(account.description)), oldest first:"]
                + entries.map { "  \(style.dim(Self.date($0.at))) \(statusChange($0))" }
        case .journal(let events):
            return events.isEmpty ? ["no events yet in this run"] : events.map(render)
        case let .timeline(timeline, written):
            var capabilities = TerminalCapabilities.of(STDOUT_FILENO)
            capabilities.color = capabilities.color && style.isEnabled
            return TerminalTimeline(capabilities: capabilities).lines(timeline) + written.map { "wrote \($0)" }
        case .slept:
            return []
        case let .expectation(account, expected, met):
            return met.map { ["\(style.cyan(account.description)): \(style.green("ok")), \(expected): \($0)"] } ?? []
        case .skipped(let reason):
            return ["skipped: \(Self.visible(reason))"]
        case .done(let text):
            return [text]
        }
    }

    private func outcomes(_ outcomes: [AccountOutcome]) -> [String] {
        let width = outcomes.map(\.account.description.count).max() ?? 0
        var lines = outcomes.map { outcome in
            let name = style.cyan(Self.padded(outcome.account.description, width))
            var text = outcome.status.map(style.status) ?? (outcome.ok && outcome.message == nil ? style.green("ok") : "")
            if outcome.ok {
                if let user = outcome.userID, outcome.status == .connected { text += " user \(user)" }
                if let message = outcome.message { text += (text.isEmpty ? "" : ", ") + message }
            } else {
                let reason = outcome.message ?? "failed"
                // A terminated connect's message repeats its status: say it once.
                let shown = outcome.status.map { reason.hasPrefix("\($0.name) (\($0.rawValue))") } ?? false
                text = shown ? style.red(reason) : (text.isEmpty ? "" : text + " ") + style.red(reason)
            }
            return "\(name)  \(text)"
        }
        if outcomes.isEmpty { lines = ["no sessions"] }
        let failed = outcomes.count { !$0.ok }
        if outcomes.count > 1, failed > 0 { lines.append(style.red("error: ") + "\(failed) of \(outcomes.count) accounts failed") }
        return lines
    }

    private func sent(_ sent: SentMessage) -> String {
        let message = sent.message
        let state: String
        switch message.state {
        case .sent: state = style.green("sent")
        case .pending: state = style.yellow("pending") + " (no acknowledgement yet; it goes out again after a reconnection)"
        case .failed: state = style.red("failed") + (sent.rejection.map { ": \($0)" } ?? "")
        case .received: state = "received"
        }
        return "\(style.cyan(sent.account.description)) → \(message.peer): \(state), cid \(message.cid ?? "-")"
    }

    private func history(account: AccountReference, peer: String?, _ messages: [StoredMessage]) -> [String] {
        guard !messages.isEmpty else {
            return ["\(account): no messages" + (peer.map { " with \($0)" } ?? "")]
        }
        return messages.map { message in
            let arrow = (message.direction == .incoming ? "← " : "→ ") + Self.visible(message.peer)
            let state = message.direction == .outgoing && message.state != .sent ? style.yellow(" [\(Self.stateName(message.state))]") : ""
            return "\(style.dim(Self.clock(message.sentAt))) \(style.bold(arrow)): \(Self.visible(message.text))\(state)"
        }
    }

    static func stateName(_ state: StoredMessage.State) -> String {
        switch state {
        case .received: return "received"
        case .pending: return "pending"
        case .sent: return "sent"
        case .failed: return "failed"
        }
    }

    /// `1 s`, `0.05 s`, `64 s`: a wait as the backoff schedule gives it, to the millisecond.
    static func seconds(_ duration: Duration) -> String {
        let milliseconds = Int64(duration.nanoseconds / 1_000_000)
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        var text = String(Double(milliseconds) / 1000)
        while text.hasSuffix("0") { text.removeLast() }
        return text + " s"
    }

    /// `HH:MM:SS` in local time.
    static func clock(_ milliseconds: Int64) -> String {
        let parts = localTime(milliseconds)
        return "\(twoDigits(parts.tm_hour)):\(twoDigits(parts.tm_min)):\(twoDigits(parts.tm_sec))"
    }

    /// `YYYY-MM-DD HH:MM:SS` in local time, for logs kept across runs.
    static func date(_ milliseconds: Int64) -> String {
        let parts = localTime(milliseconds)
        return "\(parts.tm_year + 1900)-\(twoDigits(parts.tm_mon + 1))-\(twoDigits(parts.tm_mday)) \(clock(milliseconds))"
    }

    private static func localTime(_ milliseconds: Int64) -> tm {
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        localtime_r(&seconds, &parts)
        return parts
    }

    private static func twoDigits(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }

    static func padded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
