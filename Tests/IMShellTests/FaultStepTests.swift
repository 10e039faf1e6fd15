import IMJSON
import Testing

/// The fault steps through the binary: the embedded server stopped, started and killed (with
/// its store kept and its ports back), a link delayed, lossy and black-holed through the fault
/// proxy, `require`, and the clear refusals of a step that cannot work where it is given.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct FaultStepTests {
    /// A profile of the embedded server with a 1 s heartbeat, and one of a server elsewhere.
    static func sandbox() -> Sandbox {
        let sandbox = Sandbox()
        sandbox.write("""
            {"appKey": "faults", "appSecret": "faults-secret", "server": "embedded",
             "accounts": {"quick": {"userId": "quick", "heartbeat": 1}, "other": {"userId": "other", "deviceId": "other"}}}
            """, to: "profiles/faults.json")
        sandbox.write("""
            {"appKey": "far", "server": "mqtt://127.0.0.1:9", "accounts": {"far-phone": {"userId": "far", "token": "t"}}}
            """, to: "profiles/far.json")
        return sandbox
    }

    @Test func stopAndKillDropTheClientsWhichFindTheServerBackOnItsPortWithItsStore() async throws {
        let sandbox = Self.sandbox()
        let run = try await sandbox.json("""
            server stop
            connect alice-laptop bob-phone
            disconnect bob-phone
            send alice-laptop bob kept
            server stop
            expect alice-laptop connecting --within 2
            server stop
            server start
            server start
            expect alice-laptop connected --within 5
            connect bob-phone
            expect bob-phone message from alice kept --within 5
            server kill
            expect alice-laptop connecting --within 2
            server start
            expect alice-laptop connected --within 5
            """, ["--profile", "dev"])
        let results = run.results()
        let servers = results.filter { $0.string("command") == "server" }
        #expect(servers.map { $0["ok"] == true } == [false, true, false, true, false, true, true], "\(run.stdout)")
        #expect(servers[0].string("error")?.contains("not running yet") == true)
        #expect(servers[2].string("error") == "the embedded server is stopped already")
        #expect(servers[4].string("error") == "the embedded server is running already")
        let expects = results.filter { $0.string("command") == "expect" }
        #expect(expects.allSatisfy { $0["ok"] == true }, "\(run.stdout)")
        // The same port each time, and a DISCONNECT on stop but none on kill.
        let connectedTo = Set(run.stdoutLines.compactMap { $0.firstMatch(of: /connected to (127\.0\.0\.1:[0-9]+)/).map { String($0.1) } })
        #expect(connectedTo.count == 1, "\(connectedTo)")
        let details = run.jsonObjects().filter { $0["event"] == "status" && $0.string("account") == "dev/alice-laptop" }.compactMap { $0.string("detail") }
        #expect(details.contains { $0.contains("0x8B server shutting down") }, "\(details)")
        #expect(details.contains { $0.contains("the peer reset the connection") }, "\(details)")
    }

    /// `server move` refuses as `server stop` does: before the server has started (it does not
    /// start one to move it) and while `server stop` has it down; once it runs, it moves.
    @Test func moveRefusesUntilTheServerRunsAndWhileItIsDown() async throws {
        let sandbox = Self.sandbox()
        let run = try await sandbox.json("""
            server move
            connect alice-laptop
            server stop
            server move
            server start
            expect alice-laptop connected --within 5
            server move
            expect alice-laptop connected --within 5
            """, ["--profile", "dev"])
        // Each step's outcome in a word, then what it said: refusals and moves are told apart at once.
        let said = run.results().map { ($0["ok"] == true ? "ok: " : "no: ") + ($0.string("error") ?? $0.string("done") ?? "") }
        #expect(said.count == 8, "\(run.stdout)")
        #expect(said.first?.hasPrefix("no: the embedded server is not running yet") == true, "\(said)")
        #expect(said.dropFirst(3).first == "no: the embedded server is stopped ('server start' starts it again)", "\(said)")
        #expect(said.dropFirst(6).first?.hasPrefix("ok: embedded server moved to 127.0.0.1:") == true, "\(said)")
        #expect(said.filter { $0.hasPrefix("ok: ") }.count == 6, "connect, stop, start, move and both expects: \(said)")
    }

    @Test func serverAndRequireSayWhyOffTheEmbeddedServer() async throws {
        let sandbox = Self.sandbox()
        let run = try await sandbox.json("server stop\nrequire api\nrequire embedded\nconnect far-phone\n", ["--profile", "far"])
        let results = run.results()
        #expect(results.first?.string("error") == "server: profile far is not on the embedded server (its server is mqtt://127.0.0.1:9): imsh can stop and start only its own", "\(run.stdout)")
        #expect(results.dropFirst().first?.string("skipped") == "needs the server API (profile far has no api)")
        #expect(results.count == 2, "the script ends at the unmet require: \(run.stdout)")
        let met = try await sandbox.json("require api\nrequire embedded\n", ["--profile", "faults"])
        #expect(met.status == 0, "\(met.stdout)")
        #expect(met.results().map { $0.string("done") } == ["profile faults can call the server API", "profile faults is on the embedded server"])
    }

    /// `server block-app`: the profile's app is refused at login (31008); `unblock-app` lets
    /// it log in again.
    @Test func aBlockedAppIsRefusedAtLoginUntilUnblocked() async throws {
        let sandbox = Self.sandbox()
        let run = try await sandbox.json("""
            server block-app
            connect bob-phone --no-wait
            expect bob-phone unconnected --code 31008
            server unblock-app
            connect bob-phone
            """, ["--profile", "dev"])
        let results = run.results()
        #expect(run.status == 0, "\(run.stdout)")
        #expect(results.compactMap { $0.string("done") }.filter { $0.hasPrefix("app ") } == [
            "app imsh-dev blocked: its logins are refused (31008)", "app imsh-dev unblocked: its logins are let in again",
        ], "\(run.stdout)")
        #expect(results.last?["ok"] == true, "\(run.stdout)")
    }

    @Test func aDelayedOrLossyLinkSlowsOneAccountOnly() async throws {
        let sandbox = Self.sandbox()
        let run = try await sandbox.json("""
            link bob-phone delay 400
            connect alice-laptop bob-phone
            send alice-laptop bob slow
            expect bob-phone message slow --within 0.25
            expect bob-phone message slow --within 2
            link bob-phone loss 100
            send alice-laptop bob lost
            expect bob-phone message lost --within 0.15
            expect bob-phone message lost --within 2
            link bob-phone clear
            send alice-laptop bob fast
            expect bob-phone message fast --within 0.3
            send bob-phone alice back
            expect alice-laptop message back --within 0.3
            """, ["--profile", "dev", "--seed", "7"])
        let results = run.results()
        #expect(results.filter { $0.string("command") == "expect" }.map { $0["ok"] == true } == [false, true, false, true, true, true], "\(run.stdout)")
        let links = results.filter { $0.string("command") == "link" }.compactMap { $0.objects("accounts").first?.string("message") }
        #expect(links.count == 3 && links[1].hasPrefix("link loss 100 (proxy 127.0.0.1:") && links[1].hasSuffix(", seed 7"), "\(links)")
    }

    @Test func aBlackholeIsFoundByTheHeartbeatAndAConnectedAccountIsRefused() async throws {
        let sandbox = Self.sandbox()
        let run = try await sandbox.json("""
            connect other
            link other blackhole
            link quick clear
            connect quick
            link quick blackhole
            expect quick stays connected --for 0.4
            expect quick connecting --within 1.4
            link quick clear
            expect quick connected --within 5
            """, ["--profile", "faults"])
        let results = run.results()
        #expect(results[1].string("error") == "link: faults/other is connected straight to its server; give 'link faults/other clear' before its connect, so that its connections go through the proxy", "\(run.stdout)")
        // Heartbeat 1 s: the silence is found 0.5 to 1.5 s after the black hole began.
        #expect(results.filter { $0.string("command") == "expect" }.map { $0["ok"] == true } == [true, true, true], "\(run.stdout)")
    }

    @Test func retriesAreCheckedAsPlannedAndAsTheyCome() async throws {
        let sandbox = Self.sandbox()
        let run = try await sandbox.json("""
            connect bob-phone
            server stop
            expect bob-phone retries 0.05,0.25,0.5 --tolerance 0.3
            net bob-phone change
            sleep 0.3
            expect bob-phone retries 0.05,0.5 --within 2
            expect bob-phone retries 0.05,0.25,0.5,1,2 --within 1
            """, ["--profile", "dev"])
        let expects = run.results().filter { $0.string("command") == "expect" }
        #expect(expects.map { $0["ok"] == true } == [true, false, false], "\(run.stdout)")
        #expect(expects[0].string("met")?.hasPrefix("its retries came 0.05") == true, "\(run.stdout)")
        #expect(expects[1].string("error")?.contains("retry 2 of its latest schedule planned 0.25 s, not 0.5 s (attempt 2 in 0.05 s at ") == true, "\(run.stdout)")
        #expect(expects[2].string("error")?.contains("its latest schedule made") == true && expects[2].string("error")?.contains("not the 6 awaited") == true, "\(run.stdout)")
    }
}
