import IMEngine
import IMProfiles

extension TextRenderer {
    func profiles(_ report: ProfilesReport) -> [String] {
        var lines = [
            "profiles from \(report.profileDirectory)",
            "data in \(report.dataDirectory)",
        ]
        for profile in report.profiles {
            let marker = profile.name == report.active ? style.green("* ") : "  "
            lines.append(marker + style.bold(profile.name) + " " + String(profile.description.dropFirst(profile.name.count + 1)))
        }
        for name in report.failed {
            lines.append("  " + style.red(name) + " did not load (errors below)")
        }
        if report.profiles.isEmpty && report.failed.isEmpty { lines.append("  no profiles") }
        lines += report.notes.map { "note: \($0)" }
        lines += report.diagnostics.map(render)
        return lines
    }

    func accounts(profile: String, _ rows: [AccountStatus]) -> [String] {
        guard !rows.isEmpty else { return ["profile \(profile) has no accounts"] }
        let showKick = rows.contains { $0.account.reconnectKickEnable }
        let showProxy = rows.contains { $0.account.proxy != nil }
        var table = TextTable()
        var header = ["account", "user", "device", "platform", "token", "timeout", "heartbeat"]
        if showKick { header.append("kick-enable") }
        if showProxy { header.append("proxy") }
        header.append("status")
        table.add(header.map { TextTable.Cell($0, paint: style.dim) })
        for row in rows {
            let account = row.account
            var cells = [
                TextTable.Cell(account.name, paint: style.cyan), .init(row.userID ?? "?"), .init(account.deviceID),
                .init(account.platform.rawValue), .init("\(account.tokenSource)"), .init("\(account.timeout) s"),
                .init("\(account.heartbeat) s"),
            ]
            if showKick { cells.append(.init(account.reconnectKickEnable ? "yes" : "no")) }
            if showProxy { cells.append(.init(account.proxy.map { "\($0)" } ?? "-")) }
            cells.append(row.hasSession ? .init(style.status(row.status)) : .init("-", paint: style.dim))
            table.add(cells)
        }
        return ["accounts of \(style.bold(profile)):"] + table.lines(indent: "  ")
    }

    func statusTable(_ rows: [AccountStatus]) -> [String] {
        guard !rows.isEmpty else { return ["no accounts"] }
        let width = rows.map(\.account.reference.description.count).max() ?? 0
        return rows.map { row in
            var text = "\(style.cyan(Self.padded(row.account.reference.description, width)))  "
            guard row.hasSession else { return text + style.dim("not connected in this run") }
            text += style.status(row.status)
            if let code = row.code { text += ", " + style.red("error \(code.rawValue) \(code.name)") }
            if let user = row.userID { text += "  user \(user)" }
            if let since = row.lastChange?.at { text += style.dim("  since \(Self.clock(since))") }
            return text
        }
    }

    func statusDetail(_ row: AccountStatus) -> [String] {
        let account = row.account
        var lines = ["\(style.cyan(account.reference.description))  " + (row.hasSession ? style.status(row.status) : style.dim("not connected in this run"))]
        lines.append("  user \(row.userID ?? "?"), device \(account.deviceID), platform \(account.platform.rawValue), \(account.tokenSource)")
        if let server = row.server {
            let webSocket = row.transport == "ws" || row.transport == "wss" ? ", MQTT over WebSocket" : ""
            lines.append("  server \(server)" + webSocket + (row.tls.map { ", \($0)" } ?? ", plaintext"))
        }
        if let file = row.databaseFile { lines.append("  database \(file)") }
        if let last = row.lastChange {
            lines.append("  last change \(Self.clock(last.at)): \(statusChange(last))")
        }
        if row.recentChanges.count > 1 {
            lines.append("  recent changes:")
            lines += row.recentChanges.map { "    \(style.dim(Self.clock($0.at))) \(statusChange($0))" }
        }
        return lines
    }

    func overview() -> [String] {
        let width = CommandCatalog.all.map(\.name.count).max() ?? 0
        var lines = ["commands:"]
        lines += CommandCatalog.all.map { "  \(style.bold(Self.padded($0.name, width)))  \($0.summary)" }
        lines.append("")
        lines += Self.wrapped(
            "'help COMMAND' shows its arguments and examples. ACCOUNT is an account of the active profile, or "
                + "PROFILE/ACCOUNT; 'all' is every account of the active profile. TAB completes; events print "
                + "above the prompt as they happen.", width: 78)
        return lines
    }

    func help(_ help: CommandDefinition) -> [String] {
        var lines = ["usage: \(style.bold(help.usage))", "  \(help.summary)"]
        for paragraph in help.details { lines += [""] + Self.wrapped(paragraph, width: 78) }
        if !help.aliases.isEmpty { lines += ["", "also: \(help.aliases.joined(separator: ", "))"] }
        if !help.examples.isEmpty { lines += ["", "examples:"] + help.examples.map { "  \($0)" } }
        return lines
    }

    /// `text` broken into lines of at most `width` characters at spaces.
    static func wrapped(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
