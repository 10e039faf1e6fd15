import IMProfiles
@testable import IMShell
import Testing

struct CompletionTests {
    private let completer = ShellCompleter(context: Fixtures.context())

    private func complete(_ line: String) -> [String] { completer.candidates(lineBeforeCursor: line) }

    @Test func commandsAtTheStart() {
        #expect(complete("") == CommandCatalog.all.map(\.name))
        #expect(complete("co") == ["connect"])
        #expect(complete("  di") == ["disconnect"])
        #expect(complete("s") == ["status", "send", "server", "sleep", "skip"])
        #expect(complete("exp") == ["expect", "expire-token"])
        #expect(complete("xyz") == [])
    }

    @Test func accountsOfTheActiveProfileAndAll() {
        #expect(complete("connect ") == ["alice-phone", "alice-tablet", "bob-phone", "all"])
        #expect(complete("connect al") == ["alice-phone", "alice-tablet", "all"])
        #expect(complete("connect alice-phone b") == ["bob-phone"])
        #expect(complete("kick ") == ["alice-phone", "alice-tablet", "bob-phone"], "one account, no all")
        #expect(complete("kick alice-phone ") == [])
    }

    @Test func otherProfilesThroughTheirName() {
        #expect(complete("connect pr") == ["prod/carol-phone", "prod/carol-web", "prod/all"])
        #expect(complete("status prod/carol-w") == ["prod/carol-web"])
        #expect(complete("connect dev/b") == ["dev/bob-phone"])
    }

    @Test func profilesCommandsAndStates() {
        #expect(complete("use ") == ["dev", "prod"])
        #expect(complete("accounts p") == ["prod"])
        #expect(complete("help dis") == ["disconnect"])
        #expect(complete("wait alice-phone kick") == ["kickedOfflineByOtherClient"])
        #expect(complete("wait alice-phone TOKEN") == ["tokenIncorrect"])
        #expect(complete("net all d") == ["down"])
        #expect(complete("net all ") == ["down", "up", "change"], "all stands alone")
        #expect(complete("net alice-phone ") == ["alice-phone", "alice-tablet", "bob-phone", "down", "up", "change"])
        #expect(complete("connect all ") == [])
        #expect(complete("expect alice-phone kick") == ["kickedOfflineByOtherClient"])
        #expect(complete("expect alice-phone st") == ["stays"])
        #expect(complete("expect alice-phone me") == ["message"])
        #expect(complete("expect alice-phone connected --w") == ["--within"])
    }

    @Test func optionsAndUsers() {
        #expect(complete("connect all --") == ["--timeout", "--kick-enable", "--no-wait"])
        #expect(complete("connect all --k") == ["--kick-enable"])
        #expect(complete("connect all --timeout ") == [])
        #expect(complete("disconnect all -") == ["--disable-push"])
        #expect(complete("history bob-phone -") == ["-n"])
        #expect(complete("timeline ") == ["alice-phone", "alice-tablet", "bob-phone", "all"])
        #expect(complete("timeline alice-phone --s") == ["--since", "--svg"])
        #expect(complete("timeline all --html ") == [])
        #expect(complete("ti") == ["timeline"])
        #expect(complete("send alice-phone b") == ["bob"])
        #expect(complete("send alice-phone ") == ["alice", "bob", "carol"])
    }

    @Test func afterASemicolonANewCommandStarts() {
        #expect(complete("connect all; sta") == ["status"])
        #expect(complete("connect all;sta") == ["all;status"], "the word before the cursor keeps its part before ';'")
    }

    @Test func withoutAnActiveProfileOnlyQualifiedNames() {
        let completer = ShellCompleter(context: Fixtures.context(active: nil))
        #expect(completer.candidates(lineBeforeCursor: "connect ") == ["all"])
        #expect(completer.candidates(lineBeforeCursor: "connect d") == ["dev/alice-phone", "dev/alice-tablet", "dev/bob-phone", "dev/all"])
    }
}
