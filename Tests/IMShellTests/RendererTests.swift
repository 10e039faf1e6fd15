import IMConfig
@testable import IMEngine
import IMJSON
import IMProfiles
import IMProtocol
@testable import IMShell
import Testing

struct RendererTests {
    private let text = TextRenderer()
    private let json = JSONRenderer()

    private func object(_ line: String) throws -> JSONObject {
        #expect(!line.contains("\n"), "one object per line")
        return try #require(try JSONValue(parsing: line).objectValue)
    }

    @Test func aStatusEventNamesTheStatusAndTheCodes() async throws {
        let event = ShellEvent(account: Fixtures.reference("dev/alice-phone"), kind: .status(Fixtures.kicked))
        let line = text.render(event)
        #expect(line.hasSuffix(" dev/alice-phone kickedOfflineByOtherClient (6), error 31010 RC_CONN_KICKED_BY_OTHER_CLIENT: other-device-login"))
        #expect(line.count == "HH:MM:SS ".count + "dev/alice-phone kickedOfflineByOtherClient (6), error 31010 RC_CONN_KICKED_BY_OTHER_CLIENT: other-device-login".count)
        let object = try object(json.render(event))
        #expect(object.keys == ["type", "event", "account", "status", "code", "errorCode", "errorName", "detail", "at"])
        #expect(object["type"] == "event" && object["event"] == "status" && object["account"] == "dev/alice-phone")
        #expect(object["status"] == "kickedOfflineByOtherClient" && object["code"] == 6)
        #expect(object["errorCode"] == 31010 && object["errorName"] == "RC_CONN_KICKED_BY_OTHER_CLIENT")
    }

    @Test func aMessageEventShowsSenderAndText() async throws {
        let message = StoredMessage(id: 1, uid: "u1", cid: "c1", direction: .incoming, peer: "alice", text: "hi \"there\"", sentAt: 5, state: .received)
        let event = ShellEvent(account: Fixtures.reference("dev/bob-phone"), kind: .message(message))
        #expect(text.render(event).hasSuffix("dev/bob-phone message from alice: hi \"there\""))
        let object = try object(json.render(event))
        #expect(object.keys == ["type", "event", "account", "from", "text", "uid", "cid", "sentAt"])
        #expect(object["text"] == "hi \"there\"" && object["from"] == "alice" && object["sentAt"] == 5)
    }

    /// A peer's text cannot drive the terminal or break the line: control characters show as
    /// escapes in text (JSON keeps the text as sent, escaped by JSON itself).
    @Test func controlCharactersInAMessageShowAsEscapes() async throws {
        let hostile = "line\nfake 12:00:00 event\u{1B}]52;c;cGF3bmVk\u{07}\u{1B}[31mred\u{9B}2J\tend"
        let message = StoredMessage(id: 1, uid: "u1", cid: "c1", direction: .incoming, peer: "mal\rlory", text: hostile, sentAt: 5, state: .received)
        let line = text.render(ShellEvent(account: Fixtures.reference("dev/bob-phone"), kind: .message(message)))
        #expect(line.hasSuffix(#"message from mal\rlory: line\nfake 12:00:00 event\u{1B}]52;c;cGF3bmVk\u{7}\u{1B}[31mred\u{9B}2J\tend"#))
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        let history = text.render(CommandResult(command: "history", output: .history(account: Fixtures.reference("dev/bob-phone"), peer: nil, [message])))
        #expect(history.contains(#"← mal\rlory: line\nfake"#) && !history.contains("\u{1B}]52"))
        #expect(try object(json.render(ShellEvent(account: Fixtures.reference("dev/bob-phone"), kind: .message(message))))["text"] == .string(hostile))
    }

    @Test func outcomesAlignAndSayWhyEachFailed() async throws {
        let result = CommandResult.outcomes("connect", [
            AccountOutcome(account: Fixtures.reference("dev/alice-phone"), ok: true, status: .connected, userID: "alice"),
            AccountOutcome(
                account: Fixtures.reference("dev/bob"), ok: false, status: .tokenIncorrect, code: .tokenIncorrect,
                message: "tokenIncorrect (15), error 31004 RC_CONN_TOKEN_INCORRECT: token-incorrect"),
        ])
        #expect(!result.ok && result.error == "1 of 2 accounts failed")
        #expect(text.render(result).split(separator: "\n") == [
            "dev/alice-phone  connected (0) user alice",
            "dev/bob          tokenIncorrect (15), error 31004 RC_CONN_TOKEN_INCORRECT: token-incorrect",
            "error: 1 of 2 accounts failed",
        ])
        let object = try object(json.render(result))
        #expect(object.keys == ["type", "command", "ok", "error", "accounts"])
        #expect(object["type"] == "result" && object["command"] == "connect" && object["ok"] == false)
        guard case .array(let accounts)? = object["accounts"] else { Issue.record("no accounts array"); return }
        #expect(accounts[0] == ["account": "dev/alice-phone", "ok": true, "status": "connected", "code": 0, "userId": "alice"])
        #expect(accounts[1].objectValue?["errorCode"] == 31004 && accounts[1].objectValue?["errorName"] == "RC_CONN_TOKEN_INCORRECT")
        #expect(accounts[1].objectValue?["status"] == "tokenIncorrect" && accounts[1].objectValue?["code"] == 15)
    }

    @Test func aSingleFailedOutcomeIsNotRepeated() {
        let result = CommandResult.outcomes("wait", [
            AccountOutcome(account: Fixtures.reference("dev/a"), ok: false, status: .connecting, message: "still connecting (10) after 1 s, not connected (0)"),
        ])
        #expect(text.render(result) == "dev/a  connecting (10) still connecting (10) after 1 s, not connected (0)")
    }

    @Test func failuresAndUsageErrorsInBothFormats() async throws {
        let failure = CommandResult.failure("use", "no profile named x", profileError: true)
        #expect(text.render(failure) == "error: no profile named x")
        #expect(try object(json.render(failure)) == JSONObject([
            ("type", "result"), ("command", "use"), ("ok", false), ("error", "no profile named x"), ("profileError", true),
        ]))
        let usage = CommandResult.usage("conect", CommandSyntaxError("unknown command 'conect'", line: 2))
        #expect(text.render(usage) == "error: line 2: unknown command 'conect'")
        #expect(try object(json.render(usage))["usage"] == true)
    }

    @Test func colourOnlyWhenEnabled() {
        let event = ShellEvent(account: Fixtures.reference("dev/a"), kind: .status(Fixtures.kicked))
        #expect(!text.render(event).contains("\u{1B}["))
        let coloured = TextRenderer(style: TerminalStyle(isEnabled: true)).render(event)
        #expect(coloured.contains("\u{1B}[31mkickedOfflineByOtherClient (6)\u{1B}[0m"))
    }

    @Test func noColorTurnsColourOffEvenOnATerminal() {
        // Standard input of the test may or may not be a terminal; NO_COLOR wins either way.
        #expect(!TerminalStyle.forOutput(0, environment: { $0 == "NO_COLOR" ? "1" : nil }).isEnabled)
        #expect(!TerminalStyle.forOutput(-1, environment: { _ in nil }).isEnabled, "not a terminal")
    }

    @Test func helpListsEveryCommandAndExplainsOne() async throws {
        let overview = text.render(CommandResult(command: "help", output: .help(nil)))
        for help in CommandCatalog.all {
            #expect(overview.contains("  \(TextRenderer.padded(help.name, 12))  \(help.summary)\n"), "\(help.name) listed")
        }
        #expect(overview.split(separator: "\n").allSatisfy { $0.count <= 80 }, "fits a terminal")
        let one = text.render(CommandResult(command: "help", output: .help(CommandCatalog.named("connect"))))
        #expect(one.hasPrefix("usage: connect ACCOUNT...|all [--timeout S] [--kick-enable] [--no-wait]\n  log accounts in, in parallel\n"))
        #expect(one.split(separator: "\n").allSatisfy { $0.count <= 80 })
        let object = try object(json.render(CommandResult(command: "help", output: .help(nil))))
        guard case .array(let commands)? = object["commands"] else { Issue.record("no commands"); return }
        #expect(commands.compactMap { $0.objectValue?["name"]?.stringValue } == CommandCatalog.all.map(\.name))
    }

    @Test func diagnosticsInBothFormats() async throws {
        let diagnostic = ConfigDiagnostic(.error, file: "p/dev.json", location: SourceLocation(line: 3, column: 5), field: "accounts.a", reason: "bad")
        #expect(text.render(diagnostic) == "p/dev.json:3:5: error: accounts.a: bad")
        #expect(try object(json.render(diagnostic)) == JSONObject([
            ("type", "diagnostic"), ("severity", "error"), ("file", "p/dev.json"), ("line", 3), ("column", 5),
            ("field", "accounts.a"), ("reason", "bad"), ("text", "p/dev.json:3:5: error: accounts.a: bad"),
        ]))
    }

    @Test func accountRowsShowTokensRedacted() async throws {
        let token = "eyJ2IjoxLCJrIjoiaW1zaC1kZXYifQ.abcdefghijklmnop"
        var account = Fixtures.account
        account.tokenSource = .literal(Secret(token))
        let row = AccountStatus(account: account, status: .unknown, lastChange: nil, userID: "alice", hasSession: false)
        let result = CommandResult(command: "accounts", output: .accounts(profile: "dev", [row]))
        #expect(!text.render(result).contains(token) && text.render(result).contains("token eyJ2…"))
        #expect(!json.render(result).contains(token) && json.render(result).contains("\"token\":\"token eyJ2…\""))
    }

    @Test func theRedactorHidesEveryKnownSecret() {
        let redactor = SecretRedactor()
        redactor.add(Secret("imsh-dev-secret"))
        redactor.add(Secret("short"))
        #expect(redactor.redact("secret imsh-dev-secret, twice imsh-dev-secret") == "secret imsh…, twice imsh…")
        #expect(redactor.redact("short stays") == "short stays", "too short to search for")
        #expect(redactor.containsSecret("x imsh-dev-secret") && !redactor.containsSecret("imsh-dev"))
    }

    @Test func tokensAreRedactedWhereverTheyAppear() throws {
        let token = try Token.issue(appKey: "imsh-dev", secret: "s", userID: "alice", issuedAt: 1)
        let redactor = SecretRedactor()
        #expect(redactor.redact("command echo \(token); done") == "command echo eyJ2…; done")
        #expect(redactor.redact("at 127.0.0.1:1883, file a.b.c") == "at 127.0.0.1:1883, file a.b.c")
    }
}

/// Redaction with many secrets: each found wherever it stands, nothing else touched.
struct ManySecretsRedactionTests {
    @Test func tenThousandSecretsAreFoundInALongLine() {
        let redactor = SecretRedactor()
        for index in 0..<10_000 { redactor.add(Secret("secret-\(index)-value")) }
        let filler = String(repeating: "plain words, nothing to hide; ", count: 2_000)
        let line = filler + "secret-9999-value" + filler + "secret-0-value!" + "secret-10000-value"
        let redacted = redactor.redact(line)
        #expect(!redacted.contains("secret-9999-value") && !redacted.contains("secret-0-value"))
        #expect(redacted.contains("secret-10000-value"), "not a registered secret")
        #expect(redacted.hasPrefix(filler) && redacted.utf8.count < line.utf8.count)
        #expect(redactor.containsSecret("x secret-42-value y") && !redactor.containsSecret("secret-42-valu"))
    }
}

/// The automaton behind redaction, on the classic overlapping patterns.
struct SecretAutomatonTests {
    @Test func everyOccurrenceIsFoundAndReplacementsAreLeftmostLongest() {
        let automaton = SecretAutomaton(["he", "she", "his", "hers"].map { Array($0.utf8) })
        let found = automaton.matches(in: Array("ushers".utf8)).map { ($0.start, $0.pattern) }
        #expect(found.map(\.0) == [1, 2, 2] && Set(found.map(\.1)) == [1, 0, 3], "she, he, hers")
        #expect(automaton.replacements(in: Array("ushers".utf8)) == [.init(start: 1, pattern: 1)], "she first, then nothing free")
        let nested = SecretAutomaton(["abcd", "bc", "cde"].map { Array($0.utf8) })
        #expect(nested.replacements(in: Array("xabcdex bc".utf8)) == [.init(start: 1, pattern: 0), .init(start: 8, pattern: 1)])
        #expect(nested.matches(in: Array("nothing here".utf8)).isEmpty)
    }
}
