import IMJSON
import Testing

/// Profiles that are not JSON, too big, or of the wrong types, as imsh meets them: each is
/// reported with its reason and left out, and the good profiles still work (exit status 3).
@Suite(.timeLimit(.minutes(1)))
struct HostileProfileTests {
    @Test func badProfilesAreReportedAndSkippedWhileTheGoodOnesWork() async throws {
        let sandbox = Sandbox()
        sandbox.write("\u{FF}\u{FE}not json at all {", to: "profiles/garbage.json")
        sandbox.write(#"{"appKey": "k", "server": "embedded", "accounts": {}, "pad": ""# + String(repeating: "x", count: 1 << 20) + #""}"#,
                      to: "profiles/huge.json")
        sandbox.write(#"{"appKey": ["k"], "server": 5, "accounts": {"a": {"userId": 7, "heartbeat": "often"}}}"#,
                      to: "profiles/typed.json")
        let run = try await sandbox.json("profiles; accounts dev; use typed")
        #expect(run.status == 3)
        let profiles = try #require(run.result("profiles"))
        #expect(profiles["failed"] == ["garbage", "huge", "typed"])
        #expect(profiles.objects("profiles").map { $0.string("name") } == ["dev", "prod"])
        let reasons = profiles.objects("diagnostics").map { "\($0.string("file")?.split(separator: "/").last ?? ""): \($0.string("reason") ?? "")" }
        #expect(reasons.contains { $0.hasPrefix("garbage.json: not valid JSON: ") })
        #expect(reasons.contains("huge.json: larger than 1048576 bytes (1024 KiB), the most a profile may be; is this the right file?"))
        #expect(reasons.contains("typed.json: expected a string, found an array"))
        #expect(reasons.contains { $0.hasPrefix("typed.json: expected \"embedded\", an address") })
        #expect(reasons.contains("typed.json: expected a string, found a number"))
        #expect(run.result("accounts")?["ok"] == true, "dev still works")
        #expect(run.result("use")?["profileError"] == true)
    }
}
