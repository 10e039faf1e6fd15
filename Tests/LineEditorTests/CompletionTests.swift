import LineEditor
import Testing
import TestSupport

/// TAB completion on a pseudo-terminal.
struct CompletionTests {
    static let commands = ["connect", "contacts", "disconnect", "quit", "statistics", "status"]

    static func options() -> LineEditor.Options {
        LineEditor.Options(completion: { line in
            let word = line.split(separator: " ", omittingEmptySubsequences: false).last.map(String.init) ?? ""
            return commands.filter { $0.hasPrefix(word) }
        })
    }

    @Test func tabCompletesTheOnlyCandidateWithASpace() async throws {
        let harness = try EditorHarness(options: Self.options())
        defer { harness.close() }
        let read = await harness.startLine()
        harness.terminal.send("qu" + Key.tab)
        await harness.expectScreen("the completed word") { $0.cursorLine == "> quit" && $0.column == 7 }
        harness.terminal.send("now" + Key.enter)
        #expect(await harness.line(of: read) == "quit now")
    }

    @Test func tabCompletesTheCommonPrefixThenListsOnTheSecondPress() async throws {
        let harness = try EditorHarness(options: Self.options())
        defer { harness.close() }
        let read = await harness.startLine()
        harness.terminal.send("sta" + Key.tab)
        await harness.expectScreen("the common prefix") { $0.cursorLine == "> stat" && $0.column == 6 }
        harness.terminal.send(Key.tab)
        let screen = await harness.expectScreen("the candidates above the prompt") {
            $0.lineAboveCursor == "statistics  status" && $0.cursorLine == "> stat" && $0.column == 6
        }
        #expect(screen.allLines.filter { $0.hasPrefix(">") } == ["> stat"])
        harness.terminal.send("us" + Key.enter)
        #expect(await harness.line(of: read) == "status")
    }

    @Test func tabWithoutProgressListsAtOnceAndKeepsTheEarlierWords() async throws {
        let harness = try EditorHarness(options: Self.options())
        defer { harness.close() }
        let read = await harness.startLine()
        harness.terminal.send("help con" + Key.tab)
        await harness.expectScreen("the candidates") {
            $0.lineAboveCursor == "connect   contacts" && $0.cursorLine == "> help con"
        }
        harness.terminal.send("n" + Key.tab + "x" + Key.enter)
        #expect(await harness.line(of: read) == "help connect x")
    }

    @Test func tabWithNoCandidateLeavesTheLine() async throws {
        let harness = try EditorHarness(options: Self.options())
        defer { harness.close() }
        let read = await harness.startLine()
        harness.terminal.send("zz" + Key.tab + "y")
        await harness.expectScreen("the line unchanged") { $0.cursorLine == "> zzy" }
        harness.terminal.send(Key.enter)
        #expect(await harness.line(of: read) == "zzy")
    }
}
