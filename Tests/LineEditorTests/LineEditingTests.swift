import LineEditor
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing
import TestSupport

/// Typing and editing keys on a real pseudo-terminal.
struct LineEditingTests {
    @Test func typingALineAndEnterReturnsIt() async throws {
        let harness = try EditorHarness()
        defer { harness.close() }
        let read = await harness.startLine()
        var modes = termios()
        #expect(tcgetattr(harness.terminal.slave, &modes) == 0)
        #expect(modes.c_lflag & tcflag_t(ECHO | ICANON | ISIG) == 0, "editing mode is on once the prompt shows")
        harness.terminal.send("hello world")
        await harness.expectScreen("the typed text") { $0.cursorLine == "> hello world" && $0.column == 13 }
        harness.terminal.send(Key.enter)
        #expect(await harness.line(of: read) == "hello world")
    }

    @Test func backspaceHomeEndAndInsertAfterLeftArrow() async throws {
        let harness = try EditorHarness()
        defer { harness.close() }
        let read = await harness.startLine()
        harness.terminal.send("helo wrld!x" + Key.backspace)
        harness.terminal.send(Key.left + Key.left + Key.left + Key.left + "o")
        await harness.expectScreen("the inserted o") { $0.cursorLine == "> helo world!" && $0.column == 9 }
        harness.terminal.send(Key.controlA + ">" + Key.controlE + "<")
        await harness.expectScreen("both ends edited") { $0.cursorLine == "> >helo world!<" }
        harness.terminal.send(Key.controlA + Key.left + "\u{1B}[C\u{1B}[C\u{1B}[C\u{1B}[C" + "l" + Key.enter)
        #expect(await harness.line(of: read) == ">hello world!<")
    }

    @Test func controlDOnAnEmptyLineIsEndOfInput() async throws {
        let harness = try EditorHarness()
        defer { harness.close() }
        let read = await harness.startLine()
        harness.terminal.send(Key.controlD)
        #expect(await harness.line(of: read) == nil)
    }

    @Test func controlCAbandonsTheLineForAFreshPrompt() async throws {
        let harness = try EditorHarness()
        defer { harness.close() }
        let read = await harness.startLine()
        harness.terminal.send("oops")
        await harness.expectScreen("the typed text") { $0.cursorLine == "> oops" }
        harness.terminal.send(Key.controlC)
        let screen = await harness.expectScreen("a fresh prompt under the abandoned line") {
            $0.showsOnly(prompt: "> ") && $0.lineAboveCursor == "> oops^C"
        }
        #expect(screen.allLines.filter { $0.hasPrefix(">") } == ["> oops^C", ">"])
        harness.terminal.send("ok" + Key.enter)
        #expect(await harness.line(of: read) == "ok")
    }

    @Test func utf8TextRoundTrips() async throws {
        let harness = try EditorHarness()
        defer { harness.close() }
        let read = await harness.startLine()
        harness.terminal.send("héllo wörld ✓")
        await harness.expectScreen("the UTF-8 text") { $0.cursorLine == "> héllo wörld ✓" && $0.column == 15 }
        harness.terminal.send(Key.backspace + "ß" + Key.enter)
        #expect(await harness.line(of: read) == "héllo wörld ß")
    }

    @Test func theRedrawCharacterTypedByAUserIsDropped() async throws {
        let harness = try EditorHarness()
        defer { harness.close() }
        let read = await harness.startLine()
        harness.terminal.send("a\u{9E}b" + Key.enter)
        #expect(await harness.line(of: read) == "ab")
    }

    @Test func colouredPromptKeepsTheCursorWhereTheTextIs() async throws {
        let options = LineEditor.Options(prompt: { "\u{1B}[1;32mdev\u{1B}[0m (2/5)> \u{1B}[0m" })
        let harness = try EditorHarness(options: options)
        defer { harness.close() }
        let read = await harness.startLine(prompt: "dev (2/5)> ")
        harness.terminal.send("abc" + Key.left)
        await harness.expectScreen("the text after the prompt") { $0.cursorLine == "dev (2/5)> abc" && $0.column == 13 }
        harness.editor.printAbove("[dev] connected")
        await harness.expectScreen("the message above an intact line") {
            $0.lineAboveCursor == "[dev] connected" && $0.cursorLine == "dev (2/5)> abc" && $0.column == 13
        }
        harness.terminal.send("X" + Key.enter)
        #expect(await harness.line(of: read) == "abXc")
    }

    @Test func refreshPromptRedrawsTheLineWithTheNewPrompt() async throws {
        let prompt = Mutex("dev (1/5)> ")
        let harness = try EditorHarness(options: LineEditor.Options(prompt: { prompt.withLock { $0 } }))
        defer { harness.close() }
        let read = await harness.startLine(prompt: "dev (1/5)> ")
        harness.terminal.send("status")
        await harness.expectScreen("the typed text") { $0.cursorLine == "dev (1/5)> status" }
        prompt.withLock { $0 = "dev (2/5)> " }
        harness.editor.refreshPrompt()
        await harness.expectScreen("the new prompt") { $0.cursorLine == "dev (2/5)> status" && $0.column == 17 }
        harness.terminal.send(Key.enter)
        #expect(await harness.line(of: read) == "status")
    }

    @Test func closeEndsAPendingRead() async throws {
        let harness = try EditorHarness()
        defer { harness.terminal.close() }
        let read = await harness.startLine()
        harness.editor.close()
        #expect(await harness.line(of: read) == nil)
        #expect(await harness.editor.readLine() == nil)
    }

    @Test func isTerminalTellsAPseudoTerminalFromAPipe() throws {
        let terminal = try PseudoTerminal()
        defer { terminal.close() }
        #expect(LineEditor.isTerminal(fd: terminal.slave))
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { ends.forEach { _ = Glibc.close($0) } }
        #expect(!LineEditor.isTerminal(fd: ends[0]))
    }

    @Test func aPipeIsReadLineByLineWithoutEditing() async throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let terminal = try PseudoTerminal()
        defer {
            _ = Glibc.close(ends[0])
            terminal.close()
        }
        let script = Array("status\nconnect all\n".utf8)
        #expect(script.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } == script.count)
        _ = Glibc.close(ends[1])
        let editor = try LineEditor(input: ends[0], output: terminal.slave, programName: "imsh-test")
        defer { editor.close() }
        #expect(await editor.readLine() == "status")
        #expect(await editor.readLine() == "connect all")
        #expect(await editor.readLine() == nil)
    }
}
