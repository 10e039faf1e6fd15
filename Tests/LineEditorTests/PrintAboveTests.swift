import Foundation
import LineEditor
import Testing
import TestSupport

/// Messages from other threads appear above the prompt without disturbing the line being typed.
struct PrintAboveTests {
    @Test func messageFromAnotherThreadLandsAboveAHalfTypedLine() async throws {
        let harness = try EditorHarness()
        defer { harness.close() }
        let read = await harness.startLine()
        harness.terminal.send("hello world" + String(repeating: Key.left, count: 5))
        await harness.expectScreen("the cursor before 'world'") { $0.cursorLine == "> hello world" && $0.column == 8 }
        let editor = harness.editor
        let thread = Thread { editor.printAbove("[dev] connected") }
        thread.start()
        let screen = await harness.expectScreen("the message above the intact line") {
            $0.lineAboveCursor == "[dev] connected" && $0.cursorLine == "> hello world" && $0.column == 8
        }
        #expect(screen.allLines.filter { $0.contains("hello") }.count == 1)
        harness.terminal.send("big ")
        await harness.expectScreen("typing after the message") { $0.cursorLine == "> hello big world" && $0.column == 12 }
        harness.terminal.send(Key.enter)
        #expect(await harness.line(of: read) == "hello big world")
    }

    @Test func manyMessagesFromSeveralThreadsAllAppearWhole() async throws {
        let harness = try EditorHarness()
        defer { harness.close() }
        let read = await harness.startLine()
        harness.terminal.send("half typed" + Key.left + Key.left)
        await harness.expectScreen("the half-typed line") { $0.cursorLine == "> half typed" && $0.column == 10 }
        let editor = harness.editor
        let threads = 4
        let perThread = 50
        let expected = (0..<threads).flatMap { thread in (0..<perThread).map { "[acct\(thread)] event \($0) kicked" } }
        for thread in 0..<threads {
            Thread {
                for index in 0..<perThread { editor.printAbove("[acct\(thread)] event \(index) kicked") }
            }.start()
        }
        let screen = await harness.expectScreen("all \(expected.count) messages") { screen in
            Set(expected).isSubset(of: screen.allLines) && screen.cursorLine == "> half typed" && screen.column == 10
        }
        let messageLines = screen.allLines.filter { $0.contains("event") }
        #expect(messageLines.count == expected.count, "every message exactly once, each on a line of its own")
        for thread in 0..<threads {
            let own = messageLines.filter { $0.hasPrefix("[acct\(thread)]") }
            #expect(own == (0..<perThread).map { "[acct\(thread)] event \($0) kicked" }, "one thread's messages keep their order")
        }
        #expect(screen.allLines.filter { $0.hasPrefix(">") } == ["> half typed"], "no stale copies of the prompt")
        harness.terminal.send("ly " + Key.enter)
        #expect(await harness.line(of: read) == "half typly ed")
    }

    @Test func withNoLineBeingReadTheMessagePrintsAtOnce() async throws {
        let harness = try EditorHarness()
        defer { harness.close() }
        harness.editor.printAbove("[dev] kicked by server\n")
        harness.editor.printAbove("second")
        let screen = await harness.expectScreen("both messages") { $0.lines.starts(with: ["[dev] kicked by server", "second"]) }
        #expect(screen.row == 2 && screen.column == 0)
        let read = await harness.startLine()
        harness.terminal.send("x" + Key.enter)
        #expect(await harness.line(of: read) == "x")
    }

    @Test func aMultiLineMessageKeepsItsLines() async throws {
        let harness = try EditorHarness()
        defer { harness.close() }
        let read = await harness.startLine()
        harness.terminal.send("abc")
        harness.editor.printAbove("line one\nline two")
        let screen = await harness.expectScreen("both lines above the prompt") { $0.cursorLine == "> abc" && $0.lineAboveCursor == "line two" }
        #expect(screen.lines[screen.row - 2] == "line one")
        harness.terminal.send(Key.enter)
        #expect(await harness.line(of: read) == "abc")
    }

    @Test func aWrappedLineIsRedrawnWholeBelowTheMessage() async throws {
        let harness = try EditorHarness()
        defer { harness.close() }
        let read = await harness.startLine()
        let text = (0..<100).map { String($0 % 10) }.joined()
        harness.terminal.send(text + String(repeating: Key.left, count: 60))
        await harness.expectScreen("the cursor on the first row") { $0.row == 0 && $0.column == 42 }
        harness.editor.printAbove("[dev] connected")
        let screen = await harness.expectScreen("the message above both rows of the line") {
            $0.lines.prefix(3) == ["[dev] connected", "> " + text.prefix(78), String(text.dropFirst(78))]
                && $0.row == 1 && $0.column == 42
        }
        #expect(screen.lines.dropFirst(3).allSatisfy { $0.isEmpty })
        harness.terminal.send("+" + Key.controlE)
        await harness.expectScreen("the cursor at the end, on the second row") { $0.row == 2 && $0.column == 23 }
        harness.editor.printAbove("[dev] kicked")
        let edited = "> " + text.prefix(40) + "+" + text.dropFirst(40)
        await harness.expectScreen("the second message above the line, the cursor still at its end") {
            $0.lines.prefix(4) == ["[dev] connected", "[dev] kicked", String(edited.prefix(80)), String(edited.dropFirst(80))]
                && $0.row == 3 && $0.column == 23
        }
        harness.terminal.send(Key.enter)
        #expect(await harness.line(of: read) == text.prefix(40) + "+" + text.dropFirst(40))
    }

    @Test func aMessageWaitsForTheKeyAfterEscape() async throws {
        // A long hold, so a busy machine delaying this test cannot run out the wait.
        var options = LineEditor.Options()
        options.keySequenceHold = .seconds(10)
        let harness = try EditorHarness(options: options)
        defer { harness.close() }
        let read = await harness.startLine()
        harness.terminal.send("hello world\u{1B}")
        await harness.expectScreen("the typed text") { $0.cursorLine == "> hello world" }
        harness.editor.printAbove("[dev] message received")
        try await Task.sleep(for: .milliseconds(100))
        // ESC b is backward-word: split by the message, the b would be typed instead.
        harness.terminal.send("b")
        await harness.expectScreen("the message, and the cursor a word back") {
            $0.lineAboveCursor == "[dev] message received" && $0.cursorLine == "> hello world" && $0.column == 8
        }
        harness.terminal.send("X" + Key.enter)
        #expect(await harness.line(of: read) == "hello Xworld")
    }
}
