import IMShell
import Testing

struct TokenizerTests {
    @Test func wordsAreSeparatedBySpacesAndTabs() async throws {
        #expect(try CommandTokenizer.words(in: "  connect\talice-phone   bob-phone ") == ["connect", "alice-phone", "bob-phone"])
        #expect(try CommandTokenizer.words(in: "   ") == [])
    }

    @Test func quotesKeepSpacesAndSemicolons() async throws {
        #expect(try CommandTokenizer.words(in: #"send alice-phone bob "hello there; friend""#) == ["send", "alice-phone", "bob", "hello there; friend"])
        #expect(try CommandTokenizer.words(in: "send a b 'it''s \"quoted\"'") == ["send", "a", "b", #"its "quoted""#])
        #expect(try CommandTokenizer.words(in: #"send a b "" x"#) == ["send", "a", "b", "", "x"])
    }

    @Test func backslashesEscape() async throws {
        #expect(try CommandTokenizer.words(in: #"send a b hello\ there\;"#) == ["send", "a", "b", "hello there;"])
        #expect(try CommandTokenizer.words(in: #"send a b "say \"hi\" \\ \n""#) == ["send", "a", "b", #"say "hi" \ \n"#])
    }

    @Test func semicolonsAndNewlinesSeparateCommandsWithTheirLines() async throws {
        let commands = try CommandTokenizer.commands(in: "connect all; status\n\n  # a comment; not a command\nwait all connected # trailing\n;;")
        #expect(commands == [
            TokenizedCommand(words: ["connect", "all"], line: 1),
            TokenizedCommand(words: ["status"], line: 1),
            TokenizedCommand(words: ["wait", "all", "connected"], line: 4),
        ])
    }

    @Test func aHashInsideAWordIsNotAComment() async throws {
        #expect(try CommandTokenizer.words(in: "send a b issue#42") == ["send", "a", "b", "issue#42"])
    }

    @Test func aBackslashAtTheEndOfALineContinuesIt() async throws {
        let commands = try CommandTokenizer.commands(in: "connect alice \\\n  bob\nstatus")
        #expect(commands == [TokenizedCommand(words: ["connect", "alice", "bob"], line: 1), TokenizedCommand(words: ["status"], line: 3)])
    }

    @Test func aQuotedNewlineStaysInTheWord() async throws {
        let commands = try CommandTokenizer.commands(in: "send a b \"two\nlines\"\nstatus")
        #expect(commands.map(\.words) == [["send", "a", "b", "two\nlines"], ["status"]])
        #expect(commands.map(\.line) == [1, 3])
    }

    @Test func anUnclosedQuoteIsAnErrorNamingWhereItOpened() {
        #expect(throws: CommandSyntaxError("the \" opened at column 10 is never closed; add a closing \"", line: 2)) {
            try CommandTokenizer.commands(in: "status\nsend a b \"hello")
        }
        #expect(throws: CommandSyntaxError("the ' opened at column 1 is never closed; add a closing '", line: 1)) {
            try CommandTokenizer.commands(in: "'")
        }
    }

    @Test func wordsRefusesSeveralCommands() {
        #expect(throws: CommandSyntaxError("expected one command, found 2")) { try CommandTokenizer.words(in: "a; b") }
    }
}
