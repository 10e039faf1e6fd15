import Foundation
import LineEditor
import Testing
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// Persistent history: private file, filter, recall with the up arrow in a later editor.
struct HistoryTests {
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("imsh-history-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func options(_ path: String) -> LineEditor.Options {
        LineEditor.Options(historyFile: path, historyFilter: { !$0.hasPrefix("login ") })
    }

    static func mode(_ path: String) -> mode_t {
        var status = stat()
        guard stat(path, &status) == 0 else { return 0 }
        return status.st_mode & 0o777
    }

    @Test func linesAreKeptPrivatelyWithoutFilteredOnesAndRecalledLater() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("history").path

        let first = try EditorHarness(options: Self.options(path))
        for line in ["status", "login secret-token", "connect all", "connect all", "   "] {
            let read = await first.startLine()
            first.terminal.send(line + Key.enter)
            #expect(await first.line(of: read) == line)
        }
        first.close()

        #expect(Self.mode(path) == 0o600)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == "status\nconnect all\n")
        #expect(!text.contains("secret"))

        let second = try EditorHarness(options: Self.options(path))
        defer { second.close() }
        let read = await second.startLine()
        second.terminal.send(Key.up)
        await second.expectScreen("the newest entry") { $0.cursorLine == "> connect all" }
        second.terminal.send(Key.up)
        await second.expectScreen("the entry before it") { $0.cursorLine == "> status" }
        second.terminal.send(Key.up + "\u{1B}[B")
        await second.expectScreen("down again") { $0.cursorLine == "> connect all" }
        second.terminal.send(Key.enter)
        #expect(await second.line(of: read) == "connect all")
    }

    @Test func anExistingFileReadableByOthersIsMadePrivate() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("history").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data("one\ntwo\n".utf8)))
        #expect(chmod(path, 0o644) == 0)
        let harness = try EditorHarness(options: Self.options(path))
        defer { harness.close() }
        #expect(Self.mode(path) == 0o600)
        let read = await harness.startLine()
        harness.terminal.send(Key.up)
        await harness.expectScreen("the loaded entry") { $0.cursorLine == "> two" }
        harness.terminal.send(Key.enter)
        #expect(await harness.line(of: read) == "two")
    }

    @Test func anUnusableHistoryPathIsReportedWithThePath() throws {
        let terminal = try PseudoTerminal()
        defer { terminal.close() }
        let options = LineEditor.Options(historyFile: "/proc/imsh-no-such-dir/history")
        #expect {
            _ = try LineEditor(input: terminal.slave, output: terminal.slave, programName: "imsh-test", options: options)
        } throws: { error in
            guard case .historyFile(let path, _) = error as? LineEditorError else { return false }
            return path == "/proc/imsh-no-such-dir/history"
        }
    }
}
