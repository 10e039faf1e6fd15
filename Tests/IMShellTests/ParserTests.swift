import IMEngine
import IMProfiles
@testable import IMShell
import IMTimeline
import Testing

struct ParserTests {
    private func parse(_ line: String) throws -> ShellCommand {
        try CommandParser.parse(try CommandTokenizer.words(in: line))
    }

    private func error(_ line: String) -> String? {
        do {
            _ = try parse(line)
            return nil
        } catch let error as CommandSyntaxError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    private func ref(_ text: String) -> AccountReference { try! AccountReference(parsing: text) }

    @Test func everyCommandParses() async throws {
        #expect(try parse("help") == .help(topic: nil))
        #expect(try parse("help exit") == .help(topic: "quit"))
        #expect(try parse("profiles") == .profiles)
        #expect(try parse("use prod") == .use(profile: "prod"))
        #expect(try parse("accounts") == .accounts(profile: nil))
        #expect(try parse("accounts prod") == .accounts(profile: "prod"))
        #expect(try parse("connect all") == .connect(.all(profile: nil), timeout: nil, kickEnable: false))
        #expect(try parse("connect prod/all --timeout=2.5 --kick-enable") == .connect(.all(profile: "prod"), timeout: 2.5, kickEnable: true))
        #expect(try parse("connect a prod/b --timeout 0") == .connect(.accounts([ref("a"), ref("prod/b")]), timeout: 0, kickEnable: false))
        #expect(try parse("connect all --no-wait") == .connect(.all(profile: nil), timeout: nil, kickEnable: false, wait: false))
        #expect(try parse("disconnect all --disable-push") == .disconnect(.all(profile: nil), disablePush: true))
        #expect(try parse("kick a") == .kick(ref("a")))
        #expect(try parse("block a 10") == .block(ref("a"), minutes: 10))
        #expect(try parse("unblock dev/a") == .unblock(ref("dev/a")))
        #expect(try parse("expire-token a") == .expireToken(ref("a")))
        #expect(try parse("status") == .status(nil))
        #expect(try parse("status a") == .status(ref("a")))
        #expect(try parse("send a bob \"hello there\"") == .send(ref("a"), to: "bob", text: "hello there"))
        #expect(try parse("send a bob hello   there") == .send(ref("a"), to: "bob", text: "hello there"))
        #expect(try parse("history a") == .history(ref("a"), peer: nil, limit: 20))
        #expect(try parse("history a bob -n 5") == .history(ref("a"), peer: "bob", limit: 5))
        #expect(try parse("net a b down") == .net(.accounts([ref("a"), ref("b")]), .down))
        #expect(try parse("net all change") == .net(.all(profile: nil), .changed))
        #expect(try parse("background all") == .background(.all(profile: nil), grace: nil))
        #expect(try parse("background a --grace 2.5") == .background(.accounts([ref("a")]), grace: 2.5))
        #expect(try parse("foreground a") == .foreground(.accounts([ref("a")])))
        #expect(try parse("log") == .log(nil, limit: 20))
        #expect(try parse("log a -n 3") == .log(ref("a"), limit: 3))
        #expect(try parse("wait all connected") == .wait(.all(profile: nil), .connected, timeout: 30))
        #expect(try parse("wait a KickedOfflineByOtherClient --timeout 5") == .wait(.accounts([ref("a")]), .kickedOfflineByOtherClient, timeout: 5))
        #expect(try parse("wait a 15") == .wait(.accounts([ref("a")]), .tokenIncorrect, timeout: 30))
        #expect(try parse("timeline") == .timeline(nil, TimelineRequest()))
        #expect(try parse("timeline prod/all --since 10m") == .timeline(.all(profile: "prod"), TimelineRequest(since: 600_000)))
        #expect(try parse("timeline a b --until 13:05 --svg /tmp/t.svg --html=t.html") == .timeline(
            .accounts([ref("a"), ref("b")]),
            TimelineRequest(until: .timeOfDay(hour: 13, minute: 5, second: 0), svgFile: "/tmp/t.svg", htmlFile: "t.html")))
        #expect(try parse("sleep 0.25") == .sleep(seconds: 0.25))
        #expect(try parse("server kill") == .server(.kill))
        #expect(try parse("server move") == .server(.move))
        #expect(try parse("database a damage") == .damageDatabase(ref("a")))
        #expect(try parse("link a delay 250") == .link(ref("a"), .delay(milliseconds: 250)))
        #expect(try parse("link a loss 10") == .link(ref("a"), .loss(percent: 10)))
        #expect(try parse("link a blackhole") == .link(ref("a"), .blackhole))
        #expect(try parse("require embedded") == .require(.embedded))
        #expect(try parse("expect a retries 0.05,0.25 --tolerance 0.2") == .expect(ref("a"), Expectation(.retries([0.05, 0.25], tolerance: 0.2), seconds: 10.3)))
        #expect(try parse("quit") == .quit)
        #expect(try parse("exit") == .quit)
    }

    @Test func everyCatalogCommandHasAParserCase() async throws {
        let samples = [
            "help", "profiles", "use p", "accounts", "connect a", "disconnect a", "kick a", "block a 1", "unblock a",
            "expire-token a", "status", "send a b c", "history a", "net a up", "background a", "foreground a", "log",
            "wait a connected", "sleep 0", "quit", "timeline", "deactivate a", "reactivate a", "expect a connected", "skip why",
            "server stop", "link a clear", "database a damage", "require api",
        ]
        #expect(Set(try samples.map { try parse($0).name }) == Set(CommandCatalog.all.map(\.name)))
    }

    @Test func timelineOptionsAreChecked() {
        #expect(error("timeline --since 5") == nil)
        #expect(error("timeline --since -5m") == "timeline: --since wants a duration such as 90s, 10m, 2h or 1d, not '-5m'")
        #expect(error("timeline --last 5m") == "timeline: unknown option --last; it takes --html, --since, --svg, --until")
        #expect(error("timeline --since=0") == "timeline: --since wants a duration such as 90s, 10m, 2h or 1d, not '0'")
        #expect(error("timeline --until yesterday") == "timeline: --until wants \(TimelineInstant.syntax), not 'yesterday'")
        #expect(error("timeline --svg=") == "timeline: --svg wants a file name")
        #expect(error("timeline a all") == "timeline: 'all' stands alone; drop the other accounts")
        #expect(error("timeline --html") == "timeline: --html needs a value (see 'help timeline')")
    }

    @Test func usageErrorsSayWhatToFix() {
        #expect(error("conect all") == "unknown command 'conect' (did you mean connect?); type 'help' for the list")
        #expect(error("frobnicate") == "unknown command 'frobnicate'; type 'help' for the list")
        #expect(error("help nothing") == "help: no command 'nothing'; type 'help' for the list")
        #expect(error("connect") == "connect: name at least one account, or all")
        #expect(error("connect all alice") == "connect: 'all' stands alone; drop the other accounts")
        #expect(error("connect a --timeout") == "connect: --timeout needs a value (see 'help connect')")
        #expect(error("connect a --timeout soon") == "connect --timeout: 'soon' is not a number of seconds from -86400 to 86400")
        #expect(error("connect a --force") == "connect: unknown option --force; it takes --kick-enable, --no-wait, --timeout")
        #expect(error("kick") == "kick: missing arguments; usage: kick ACCOUNT")
        #expect(error("server restart") == "server: 'restart' is not an action; give stop, start, kill, block-app, unblock-app or move")
        #expect(error("database a wipe") == "database: 'wipe' is not an action; give damage")
        #expect(error("link a jitter") == "link: 'jitter' is not a fault; give delay MS, loss PERCENT, blackhole or clear")
        #expect(error("link a delay") == "link: delay needs a number, as in: link a delay 200")
        #expect(error("link a loss 101") == "link loss PERCENT: '101' is not a whole number from 0 to 100")
        #expect(error("link a blackhole 5") == "link: too many arguments; usage: link ACCOUNT delay MS|loss PERCENT|blackhole|clear")
        #expect(error("require luck") == "require: 'luck' is not a requirement; give api or embedded")
        #expect(error("expect a retries") == "expect: retries wants the waits, as in: retries 0.05,0.25,0.5")
        #expect(error("expect a retries 0.05,,1") == "expect retries: '' is not a number of seconds from 0 to 3600")
        #expect(error("expect a connected --tolerance 1") == "expect: --tolerance is for retries")
        #expect(error("kick a b") == "kick: too many arguments; usage: kick ACCOUNT")
        #expect(error("kick all") == "kick takes one account, not all")
        #expect(error("kick a/b/c") == "kick: a/b/c: expected PROFILE/ACCOUNT with one '/'")
        #expect(error("block a 0") == "block MINUTES: '0' is not a whole number from 1 to 43200")
        #expect(error("block a 43201") == "block MINUTES: '43201' is not a whole number from 1 to 43200")
        #expect(error("send a bob") == "send: missing arguments; usage: send ACCOUNT TO-USER TEXT (quote TEXT to keep its spaces)")
        #expect(error("send a bob \"\"") == "send: the text is empty")
        #expect(error("net a sideways") == "net: 'sideways' is not a network change; give down, up or change")
        #expect(error("net down") == "net: missing arguments; usage: net ACCOUNT...|all down|up|change")
        #expect(error("wait a dancing")?.hasPrefix("wait: 'dancing' is not a status; give one of unknown, connected,") == true)
        #expect(error("history a -n 0") == "history -n: '0' is not a whole number from 1 to 10000")
        #expect(error("use bad/name") == "use: 'bad/name' is not a profile name; names are 1-64 characters of A-Z a-z 0-9 . _ - and do not start with '.' or '-'")
        #expect(error("quit now") == "quit: too many arguments; usage: quit")
        #expect(error("sleep -1") == "sleep: '-1' is not a number of seconds from 0 to 86400")
        #expect(error("sleep forever") == "sleep: 'forever' is not a number of seconds from 0 to 86400")
    }

    @Test func optionsEndAtDoubleDash() async throws {
        // After `--` the word is an account name, not an option; no name starts with '-'.
        #expect(error("connect -- --timeout") == "connect: --timeout: invalid account name '--timeout'; names are 1-64 characters of A-Z a-z 0-9 . _ - and do not start with '.' or '-'")
        #expect(try parse("connect -- a-b") == .connect(.accounts([ref("a-b")]), timeout: nil, kickEnable: false))
    }

    @Test func suggestionsFavourCloseNames() {
        #expect(CommandCatalog.suggestions(for: "disconect").first == "disconnect")
        #expect(CommandCatalog.suggestions(for: "stat").first == "status")
    }
}
