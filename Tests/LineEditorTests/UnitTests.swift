@testable import LineEditor
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

struct PromptMarkupTests {
    @Test func plainPromptIsUnchanged() {
        let markup = PromptMarkup("dev (2/5)> ")
        #expect(markup.marked == "dev (2/5)> ")
        #expect(markup.visible == "dev (2/5)> ")
    }

    @Test func escapeSequencesAreFencedAndGluedToTheNextCharacter() {
        let markup = PromptMarkup("\u{1B}[1m\u{1B}[32mdev\u{1B}[0m> ")
        #expect(markup.marked == "\u{1}\u{1B}[1m\u{1B}[32m\u{1}dev\u{1}\u{1B}[0m\u{1}> ")
        #expect(markup.visible == "dev> ")
    }

    @Test func aTrailingSequenceMovesBeforeTheLastVisibleCharacter() {
        let markup = PromptMarkup("\u{1B}[32mdev> \u{1B}[0m")
        #expect(markup.marked == "\u{1}\u{1B}[32m\u{1}dev>\u{1}\u{1B}[0m\u{1} ")
    }

    @Test func oscTitlesDelimitersAndControlsTakeNoRoom() {
        let markup = PromptMarkup("\u{1B}]0;imsh\u{7}a\u{1}b\u{7}c")
        #expect(markup.visible == "abc")
        #expect(markup.marked == "\u{1}\u{1B}]0;imsh\u{7}\u{1}ab\u{1}\u{7}\u{1}c")
    }
}

struct CompletionPlanTests {
    @Test func theWordIsWhatFollowsTheLastBlank() {
        #expect(CompletionPlan(lineBeforeCursor: "send dev\tal", candidates: []).word == "al")
        #expect(CompletionPlan(lineBeforeCursor: "send ", candidates: []).word == "")
    }

    @Test func actions() {
        #expect(CompletionPlan(lineBeforeCursor: "x", candidates: []).action == .none)
        #expect(CompletionPlan(lineBeforeCursor: "qu", candidates: ["quit", "quit"]).action == .replaceWord(with: "quit "))
        #expect(CompletionPlan(lineBeforeCursor: "st", candidates: ["status", "statistics"]).action == .replaceWord(with: "stat"))
        #expect(CompletionPlan(lineBeforeCursor: "stat", candidates: ["status", "statistics"]).action == .list(["status", "statistics"]))
        #expect(CompletionPlan(lineBeforeCursor: "DE", candidates: ["dev1", "dev2"]).action == .replaceWord(with: "dev"))
    }

    @Test func columnsFillTopToBottomWithinTheWidth() {
        let items = (1...7).map { "item\($0)" }
        let rows = CompletionPlan.columns(items, width: 20) { $0.count }
        #expect(rows == ["item1  item4  item7", "item2  item5", "item3  item6"])
        #expect(CompletionPlan.columns(["a-very-long-candidate", "b"], width: 10) { $0.count } == ["a-very-long-candidate", "b"])
    }
}

struct UTF8InputDecoderTests {
    @Test func aCharacterSplitAcrossReadsWaitsForItsLastByte() {
        var decoder = UTF8InputDecoder()
        decoder.append([0x61, 0xE2, 0x9C])
        #expect(decoder.next() == "a")
        #expect(decoder.next() == nil)
        decoder.append([0x93, 0x62])
        #expect(decoder.next() == "✓")
        #expect(decoder.next() == "b")
        #expect(decoder.next() == nil)
        #expect(decoder.isEmpty)
    }

    @Test func malformedBytesBecomeReplacementCharacters() {
        var decoder = UTF8InputDecoder()
        decoder.append([0xFF, 0xC3, 0x41, 0xC0, 0x80])
        var decoded: [Unicode.Scalar] = []
        while let scalar = decoder.next() { decoded.append(scalar) }
        #expect(decoded == ["\u{FFFD}", "\u{FFFD}", "A", "\u{FFFD}", "\u{FFFD}"])
    }
}

struct HistoryFileTests {
    @Test func entriesWithNewlinesAndBackslashesRoundTrip() {
        for entry in ["plain", "a\\nb", "two\nlines", "cr\r", "\\"] {
            #expect(!HistoryFile.encode(entry).contains("\n"))
            #expect(HistoryFile.decode(HistoryFile.encode(entry)) == entry)
        }
    }

    @Test func loadingDropsRepeatsRejectedLinesAndTheOldestBeyondTheLimit() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("imsh-history-\(UUID().uuidString)").path
        defer { unlink(path) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data("a\nb\nb\npassword x\nc\nd\n".utf8)))
        let file = try HistoryFile(path: path, limit: 3) { !$0.hasPrefix("password") }
        #expect(file.entries == ["b", "c", "d"])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "b\nc\nd\n")
        file.append("d")
        file.append("e")
        #expect(file.entries == ["c", "d", "e"])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "b\nc\nd\ne\n")
    }

    @Test func aLongSessionRewritesTheFileBackToTheLimit() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("imsh-history-\(UUID().uuidString)").path
        defer { unlink(path) }
        let file = try HistoryFile(path: path, limit: 2) { _ in true }
        for entry in ["1", "2", "3", "4", "5"] { file.append(entry) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "4\n5\n")
        file.append("6")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "4\n5\n6\n")
    }

    @Test func aSymlinkedHistoryIsNeitherAppendedToNorChmodded() throws {
        let target = FileManager.default.temporaryDirectory.appendingPathComponent("imsh-target-\(UUID().uuidString)").path
        let path = target + ".history"
        defer { unlink(path); unlink(target) }
        #expect(FileManager.default.createFile(atPath: target, contents: Data("x\n".utf8), attributes: [.posixPermissions: 0o644]))
        symlink(target, path)
        #expect(throws: LineEditorError.self) { _ = try HistoryFile(path: path, limit: 10) { _ in true } }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "x\n")
        var status = stat()
        stat(target, &status)
        #expect(status.st_mode & 0o777 == 0o644)
    }
}

/// What waits for a terminal that takes nothing is bounded: posters never wait, the oldest
/// lines go, and one line says how many when printing resumes.
struct EditorMailboxTests {
    @Test func linesPastTheLimitDropTheOldestAndSaySo() throws {
        let mailbox = try EditorMailbox()
        let posted = EditorMailbox.waitingLimit + 5
        for index in 0..<posted { mailbox.post("line \(index)") }
        let taken = mailbox.takeMessages()
        let dropped = EditorMailbox.waitingLimit / 10
        #expect(taken.first == "\(dropped) lines not shown: the terminal did not take them in time")
        #expect(taken.count == posted - dropped + 1)
        #expect(taken[1] == "line \(dropped)" && taken.last == "line \(posted - 1)")
        // Counted once: the next batch starts clean.
        mailbox.post("after")
        #expect(mailbox.takeMessages() == ["after"])
    }
}
