import Foundation
import Testing
import TestSupport

/// `timeline` on a real terminal (a pseudo-terminal of 80 columns): colour only on a colour
/// terminal without NO_COLOR, Unicode blocks only in a UTF-8 locale, every line within the width.
@Suite(.serialized) struct TimelineTerminalTests {
    /// What imsh wrote to the terminal for `timeline`, line by line, escape codes kept.
    func timelineOutput(_ environment: [String: String]) async throws -> [String] {
        let sandbox = Sandbox()
        let shell = try InteractiveImsh(
            ["--profiles", sandbox.profiles, "--data", sandbox.data, "-c", "timeline all --since 10m"],
            home: sandbox.home, environment: environment)
        defer { shell.close() }
        #expect(await shell.waitForExit() == 0)
        shell.terminal.settle()
        let text = String(decoding: shell.terminal.bytes, as: UTF8.self)
        return text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
    }

    static func visible(_ line: String) -> String { line.replacing(#/\x{1B}\[[0-9;]*m/#, with: "") }

    @Test func colourAndUnicodeOnAColourTerminalInAUTF8Locale() async throws {
        let lines = try await timelineOutput(["TERM": "xterm", "LANG": "C.UTF-8"])
        #expect(lines.contains { $0.contains("\u{1B}[32m\u{2588}\u{1B}[0m connected") }, "\(lines)")
        #expect(lines.contains { Self.visible($0).hasPrefix("dev/alice-tablet ") })
        #expect(lines.allSatisfy { Self.visible($0).count <= 80 }, "\(lines)")
    }

    @Test func noColourWithNoColorOrADumbTerminal() async throws {
        for environment in [["TERM": "xterm", "NO_COLOR": "1"], ["TERM": "dumb"]] {
            let lines = try await timelineOutput(environment.merging(["LANG": "C.UTF-8"]) { $1 })
            #expect(lines.contains { $0.contains("\u{2588} connected") }, "\(environment): \(lines)")
            #expect(!lines.joined().contains("\u{1B}["), "\(environment): \(lines)")
        }
    }

    @Test func asciiWhenTheLocaleIsNotUTF8() async throws {
        let lines = try await timelineOutput(["TERM": "xterm", "LANG": "C", "LC_ALL": "POSIX"])
        #expect(lines.contains { $0.contains("\u{1B}[32m#\u{1B}[0m connected") }, "\(lines)")
        #expect(lines.allSatisfy { $0.unicodeScalars.allSatisfy(\.isASCII) }, "\(lines)")
    }
}
