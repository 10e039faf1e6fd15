import Foundation
import IMJSON
import Testing
import TestSupport

/// Each hint said once (issue 14): the error cases of imsh, run through the binary, and every
/// line they print scanned for a sentence said twice.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct RepeatedHintTests {
    /// The sentences and clauses of a line: cut at ';', ':', '(' and ')', sentence ends, and ', and'.
    static func clauses(_ line: String) -> [String] {
        var text = line
        for mark in ["; ", ": ", " (", "(", ")", ". ", ", and "] { text = text.replacing(mark, with: "\u{1F}") }
        return text.split(separator: "\u{1F}").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// The clauses of three words or more that `line` says more than once.
    static func repeated(in line: String) -> [String] {
        var seen: Set<String> = [], twice: [String] = []
        for clause in clauses(line) where clause.split(separator: " ").count >= 3 {
            if !seen.insert(clause).inserted, !twice.contains(clause) { twice.append(clause) }
        }
        return twice
    }

    /// Every string in a JSON value.
    static func strings(in value: JSONValue) -> [String] {
        switch value {
        case .string(let text): return [text]
        case .array(let items): return items.flatMap(strings)
        case .object(let object): return object.members.flatMap { strings(in: $0.value) }
        default: return []
        }
    }

    @Test func theScanFindsAHintSaidTwice() {
        let line = "a:1 refused the connection (is the server running?); b:2 refused the connection (is the server running?)"
        #expect(Self.repeated(in: line) == ["is the server running?"])
        #expect(Self.repeated(in: "a:1 refused the connection; b:2 refused the connection (is the server running?)").isEmpty)
    }

    @Test func errorMessagesSayEachHintOnce() async throws {
        let sandbox = Sandbox()
        // Held, so that no server of a test running beside can take them while imsh runs.
        let held = [try LoopbackPortHold(), try LoopbackPortHold()]
        defer { held.forEach { $0.release() } }
        let (first, second) = (held[0].port, held[1].port)
        sandbox.write("""
            { "appKey": "k", "server": ["mqtt://127.0.0.1:\(first)", "mqtt://127.0.0.1:\(second)"],
              "accounts": { "a": { "userId": "a", "token": "t" }, "cmd": { "userId": "a", "tokenCommand": "exit 3" } } }
            """, to: "profiles/down.json")
        sandbox.write(#"{ "appKey": "x", "sever": "embedded", "accounts": { "a": { "tokn": "t" } } }"#, to: "profiles/broken.json")
        sandbox.write("""
            { "appKey": "k", "appSecret": "s", "server": ["mqtt://127.0.0.1:\(first)"], "api": "http://127.0.0.1:\(second)",
              "accounts": { "a": { "userId": "a" } } }
            """, to: "profiles/noapi.json")
        let scripts = [
            "connect down/a --timeout 1", "connect down/cmd --timeout 1", "nosuch", "conect a", "connect --bogus all",
            "connect all --timeout", "send", "wait all", "use nosuch", "use broken", "help nosuch", "status zz",
            "connect a/b/c", "net all sideways", "history alice-phone", "profiles", "connect noapi/a --timeout 1",
            "kick noapi/a",
        ]
        var lines = 0
        for script in scripts {
            for json in [false, true] {
                let run = try await sandbox.imsh((json ? ["--json"] : []) + ["-c", script], timeout: .seconds(30))
                for line in (run.stdout + "\n" + run.stderr).split(separator: "\n") {
                    lines += 1
                    // A JSON object gives the same text in several members (reason and text,
                    // error and message): each string is one message.
                    let texts = json ? Self.strings(in: (try? JSONValue(parsing: String(line))) ?? .string(String(line))) : [String(line)]
                    for text in texts { #expect(Self.repeated(in: text).isEmpty, "\(script): \(text)") }
                }
            }
        }
        #expect(lines > 2 * scripts.count, "every case printed something")

        // A message and a separate line for one account: what getting a token from the server
        // API lacks is one diagnostic (it was two, each saying "get a token from the server API").
        let profiles = try await sandbox.imsh(["-c", "profiles"])
        let tokenLines = profiles.stdout.split(separator: "\n").filter { $0.contains("broken.json") && $0.contains("server API") }
        #expect(tokenLines.count == 1, "\(tokenLines)")

        // The case that said it twice: two servers that refuse, in one retry line.
        let run = try await sandbox.imsh(["-c", "connect down/a --timeout 1"], timeout: .seconds(30))
        let retry = try #require(run.stdout.split(separator: "\n").first { $0.contains("attempt 2") }.map(String.init))
        #expect(retry.contains("127.0.0.1:\(first) refused the connection; 127.0.0.1:\(second) refused the connection ("), "\(retry)")
        #expect(retry.components(separatedBy: "is the server running").count == 2, "the hint once: \(retry)")
    }
}
