import IMConfig
import IMEngine
import IMJSON
import IMProfiles
import IMProtocol
import IMTimeline
import IMTransport

/// Renders results, events and diagnostics as one compact JSON object each (`--json`).
///
/// Every object has `type`: `result`, `event` or `diagnostic`. imsh(1) documents the members.
public struct JSONRenderer: Sendable {
    public init() {}

    public func render(_ result: CommandResult) -> String {
        object(result).jsonText
    }

    public func render(_ event: ShellEvent) -> String {
        object(event).jsonText
    }

    public func render(_ diagnostic: ConfigDiagnostic) -> String {
        JSONValue.object(object(diagnostic, type: true)).jsonText
    }

    func object(_ result: CommandResult) -> JSONValue {
        var members: [(String, JSONValue)] = [("type", "result"), ("command", .string(result.command)), ("ok", .bool(result.ok))]
        if let error = result.error { members.append(("error", .string(error))) }
        switch result.outcome {
        case .usageError: members.append(("usage", true))
        case .profileError: members.append(("profileError", true))
        case .ok, .failed: break
        }
        if let location = result.location { members.append(("location", .string(location))) }
        if let failedAt = result.failedAt { members.append(("at", .integer(failedAt))) }
        members += body(result.output)
        return .object(JSONObject(members))
    }

    func object(_ event: ShellEvent) -> JSONValue {
        var members: [(String, JSONValue)] = [("type", "event")]
        switch event.kind {
        case .status(let change):
            members += [("event", "status"), ("account", .string(event.account.description))]
            members += Self.change(change)
        case .message(let message):
            members += [("event", "message"), ("account", .string(event.account.description))]
            members += [("from", .string(message.peer)), ("text", .string(message.text))]
            if let uid = message.uid { members.append(("uid", .string(uid))) }
            if let cid = message.cid { members.append(("cid", .string(cid))) }
            members.append(("sentAt", .integer(message.sentAt)))
        case let .databaseProblem(isRecreated, movedAside, error):
            members += [("event", "dbOpened"), ("account", .string(event.account.description)), ("recreated", .bool(isRecreated))]
            if !movedAside.isEmpty { members.append(("movedAside", .array(movedAside.map { .string($0) }))) }
            if let error {
                if let code = error.code { members.append(("code", .integer(Int64(code.rawValue)))) }
                members.append(("error", .string(error.description)))
            }
        case let .retry(attempt, delay, reason):
            members += [("event", "retry"), ("account", .string(event.account.description)), ("status", "connecting"), ("code", 10)]
            members += [("attempt", .integer(Int64(attempt))), ("inSeconds", .double(Double(delay.nanoseconds) / 1e9))]
            if !reason.isEmpty { members.append(("detail", .string(reason))) }
        case .gap(let count):
            members += [("event", "gap"), ("account", .string(event.account.description)), ("dropped", .integer(Int64(count)))]
        }
        return .object(JSONObject(members))
    }

    private func body(_ output: CommandOutput) -> [(String, JSONValue)] {
        switch output {
        case .none:
            return []
        case .slept(let seconds):
            return [("seconds", .double(seconds))]
        case let .expectation(account, expected, met):
            return [("account", .string(account.description)), ("expected", .string(expected))] + (met.map { [("met", .string($0))] } ?? [])
        case .skipped(let reason):
            return [("skipped", .string(reason))]
        case .done(let text):
            return [("done", .string(text))]
        case .help(nil):
            return [("commands", .array(CommandCatalog.all.map { help in
                ["name": .string(help.name), "usage": .string(help.usage), "summary": .string(help.summary)]
            }))]
        case .help(let help?):
            return [
                ("name", .string(help.name)), ("usage", .string(help.usage)), ("summary", .string(help.summary)),
                ("details", .array(help.details.map { .string($0) })), ("examples", .array(help.examples.map { .string($0) })),
            ]
        case .profiles(let report):
            return profiles(report)
        case .activeProfile(let name):
            return [("profile", .string(name))]
        case let .accounts(profile, rows):
            return [("profile", .string(profile)), ("accounts", .array(rows.map { account($0, detailed: false) }))]
        case .outcomes(let outcomes):
            return [("accounts", .array(outcomes.map(outcome)))]
        case let .status(rows, detailed):
            return [("accounts", .array(rows.map { account($0, detailed: detailed) }))]
        case .sent(let sent):
            return [("account", .string(sent.account.description))] + Self.message(sent.message)
        case let .history(account, peer, messages):
            var members: [(String, JSONValue)] = [("account", .string(account.description))]
            if let peer { members.append(("peer", .string(peer))) }
            members.append(("messages", .array(messages.map { .object(JSONObject(Self.message($0))) })))
            return members
        case let .connectionLog(account, entries):
            return [
                ("account", .string(account.description)),
                ("entries", .array(entries.map { .object(JSONObject(Self.change($0))) })),
            ]
        case .journal(let events):
            return [("events", .array(events.map(object)))]
        case let .timeline(timeline, written):
            return timeline.json + [("written", .array(written.map { .string($0) }))]
        }
    }

    private func outcome(_ outcome: AccountOutcome) -> JSONValue {
        var members: [(String, JSONValue)] = [("account", .string(outcome.account.description)), ("ok", .bool(outcome.ok))]
        if let status = outcome.status { members += Self.status(status) }
        if let code = outcome.code { members += Self.code(code) }
        if let user = outcome.userID { members.append(("userId", .string(user))) }
        if let message = outcome.message { members.append(("message", .string(message))) }
        return .object(JSONObject(members))
    }

    private func account(_ row: AccountStatus, detailed: Bool) -> JSONValue {
        let account = row.account
        var members: [(String, JSONValue)] = [("account", .string(account.reference.description))]
        if let user = row.userID { members.append(("userId", .string(user))) }
        members += [
            ("deviceId", .string(account.deviceID)), ("platform", .string(account.platform.rawValue)),
            ("token", .string(account.tokenSource.description)), ("timeout", .integer(Int64(account.timeout))),
            ("heartbeat", .integer(Int64(account.heartbeat))), ("reconnectKickEnable", .bool(account.reconnectKickEnable)),
            ("jitter", .double(account.jitter)),
        ]
        if let proxy = account.proxy { members.append(("proxy", .string(proxy.description))) }
        members.append(("session", .bool(row.hasSession)))
        members += Self.status(row.status)
        // The engine's state beside the SDK's status: preparing, waiting (between attempts), ...
        if let state = row.state { members.append(("state", .string(state.name))) }
        if let code = row.code { members += Self.code(code) }
        if let last = row.lastChange {
            members.append(("since", .integer(last.at)))
            if !last.detail.isEmpty { members.append(("detail", .string(last.detail))) }
        }
        if let server = row.server {
            members.append(("server", .string(server)))
            if let transport = row.transport { members.append(("transport", .string(transport))) }
            members.append(("tls", row.tls.map(Self.tls) ?? .bool(false)))
        }
        if detailed {
            if let file = row.databaseFile { members.append(("database", .string(file))) }
            members.append(("changes", .array(row.recentChanges.map { .object(JSONObject(Self.change($0))) })))
        }
        return .object(JSONObject(members))
    }

    private func profiles(_ report: ProfilesReport) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [
            ("profileDirectory", Self.path(report.profileDirectory)), ("dataDirectory", Self.path(report.dataDirectory)),
        ]
        members.append(("active", report.active.map { .string($0) } ?? .null))
        members.append(("profiles", .array(report.profiles.map { profile in
            var fields: [(String, JSONValue)] = [
                ("name", .string(profile.name)), ("file", .string(profile.file)), ("appKey", .string(profile.appKey)),
                ("server", .string(profile.server.description)),
            ]
            if let api = profile.api { fields.append(("api", .string(api.description))) }
            if let secret = profile.appSecret { fields.append(("appSecret", .string(secret.redacted))) }
            fields.append(("accounts", .array(profile.accounts.map { .string($0.name) })))
            return .object(JSONObject(fields))
        })))
        members.append(("failed", .array(report.failed.map { .string($0) })))
        members.append(("diagnostics", .array(report.diagnostics.map { .object(object($0, type: false)) })))
        members.append(("notes", .array(report.notes.map { .string($0) })))
        return members
    }

    private func object(_ diagnostic: ConfigDiagnostic, type: Bool) -> JSONObject {
        var members: [(String, JSONValue)] = type ? [("type", "diagnostic")] : []
        members += [("severity", .string(diagnostic.severity.rawValue)), ("file", .string(diagnostic.file))]
        if let location = diagnostic.location {
            members += [("line", .integer(Int64(location.line))), ("column", .integer(Int64(location.column)))]
        }
        members += [("field", .string(diagnostic.field)), ("reason", .string(diagnostic.reason)), ("text", .string(diagnostic.description))]
        return JSONObject(members)
    }

    private static func path(_ resolved: ResolvedPath) -> JSONValue {
        ["path": .string(resolved.path), "source": .string(resolved.source.description)]
    }

    private static func status(_ status: ConnectionStatus) -> [(String, JSONValue)] {
        [("status", .string(status.name)), ("code", .integer(Int64(status.rawValue)))]
    }

    private static func code(_ code: ConnectErrorCode) -> [(String, JSONValue)] {
        [("errorCode", .integer(Int64(code.rawValue))), ("errorName", .string(code.name))]
    }

    /// The link's TLS as `status --json` shows it: `{"version","cipher","alpn"}`.
    private static func tls(_ info: TLSSessionInfo) -> JSONValue {
        var members: [(String, JSONValue)] = [("version", .string(info.version)), ("cipher", .string(info.cipher))]
        if let alpn = info.alpn { members.append(("alpn", .string(alpn))) }
        return .object(JSONObject(members))
    }

    private static func change(_ change: StatusChange) -> [(String, JSONValue)] {
        var members = status(change.status)
        if let code = change.code { members += self.code(code) }
        if !change.detail.isEmpty { members.append(("detail", .string(change.detail))) }
        members.append(("at", .integer(change.at)))
        return members
    }

    private static func message(_ message: StoredMessage) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [
            ("id", .integer(message.id)), ("direction", .string(message.direction == .incoming ? "in" : "out")),
            ("peer", .string(message.peer)), ("text", .string(message.text)), ("state", .string(TextRenderer.stateName(message.state))),
            ("sentAt", .integer(message.sentAt)),
        ]
        if let uid = message.uid { members.append(("uid", .string(uid))) }
        if let cid = message.cid { members.append(("cid", .string(cid))) }
        return members
    }
}
