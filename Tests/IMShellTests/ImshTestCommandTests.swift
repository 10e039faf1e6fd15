import Foundation
import IMJSON
import IMProcess
import IMProtocol
import IMThreads
import IMTransport
import Testing
import TestSupport

/// `imsh test` through the binary: verdicts, exit statuses, the closing line, JUnit read by a
/// real XML parser, --json, --repeat on a scenario flaky on purpose, isolation of parallel
/// scenarios, a hung scenario ended at its timeout, and usage errors.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ImshTestCommandTests {
    /// The closing line: the last line of standard output, alone.
    static func closingLine(_ run: ImshProcess.Run) -> String { run.stdoutLines.last ?? "" }

    /// `imsh test --profiles SANDBOX/profiles ARGUMENTS`.
    static func test(_ sandbox: Sandbox, _ arguments: [String]) async throws -> ImshProcess.Run {
        try await ImshProcess.run(["test", "--profiles", sandbox.profiles] + arguments, home: sandbox.root)
    }

    /// What python3 prints running `script` on `argument`.
    static func python(_ script: String, _ argument: String) async throws -> String {
        let output = try await BlockingCall.run {
            try ChildProcess.run(
                "/usr/bin/env", ["python3", "-c", script, argument],
                environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"], timeout: .seconds(30))
        }
        #expect(output.termination.status == 0, "\(String(decoding: output.stderr, as: UTF8.self))")
        return String(decoding: output.stdout, as: UTF8.self)
    }

    @Test func passFailAndSkipWithJUnit() async throws {
        let sandbox = Sandbox()
        sandbox.write("connect alice-laptop bob-phone\nsend alice-laptop bob hi\nexpect bob-phone message from alice hi --within 5\n", to: "sc/a-pass.imsh")
        sandbox.write("connect bob-phone\n\nexpect bob-phone message from alice hi --within 0.3\n", to: "sc/b-fail.imsh")
        sandbox.write("skip \"needs the server API\"\nconnect bob-phone\n", to: "sc/c-skip.imsh")
        sandbox.write("not a scenario", to: "sc/notes.txt")
        let junit = "\(sandbox.root)/report.xml"
        let run = try await Self.test(sandbox, ["--junit", junit, "\(sandbox.root)/sc"])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(Self.closingLine(run) == "1 passed, 1 failed, 1 skipped")
        #expect(run.stdout.contains("pass  \(sandbox.root)/sc/a-pass.imsh"))
        #expect(run.stdout.contains("\(sandbox.root)/sc/b-fail.imsh:3: expect dev/bob-phone: a message from alice 'hi' within 0.3 s"), "\(run.stdout)")
        #expect(run.stdout.contains("skip  \(sandbox.root)/sc/c-skip.imsh  needs the server API"))
        #expect(!run.stdout.contains("notes.txt"))
        // Python's own XML parser reads the report as CI servers do.
        let check = """
            import sys, xml.etree.ElementTree as E
            suite = E.parse(sys.argv[1]).getroot().find('testsuite')
            print(suite.get('tests'), suite.get('failures'), suite.get('skipped'))
            for case in suite.findall('testcase'):
                f = case.find('failure')
                print(case.get('name').split('/')[-1], 'failure' if f is not None else '', f.get('message').split(': ')[0] if f is not None else '', 'skipped' if case.find('skipped') is not None else '')
            """
        let parsed = try await Self.python(check, junit)
        let lines = parsed.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.first == "3 1 1", "\(parsed)")
        #expect(lines.contains("b-fail.imsh failure \(sandbox.root)/sc/b-fail.imsh:3"), "\(parsed)")
        #expect(lines.contains { $0.hasPrefix("c-skip.imsh") && $0.hasSuffix("skipped") }, "\(parsed)")
    }

    @Test func allPassingIsExitZeroAndJSONHasOneObjectPerScenario() async throws {
        let sandbox = Sandbox()
        sandbox.write("connect bob-phone\nexpect bob-phone connected\n", to: "sc/one.imsh")
        sandbox.write("sleep 0.1\n", to: "sc/two.imsh")
        let run = try await Self.test(sandbox, ["--json", "\(sandbox.root)/sc"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let objects = run.jsonObjects()
        #expect(objects.filter { $0["type"] == "scenario" }.compactMap { $0.string("result") } == ["passed", "passed"])
        #expect(objects.last?["type"] == "summary" && objects.last?["passed"] == 2 && objects.last?["failed"] == 0)
    }

    @Test func repeatNamesAScenarioFlakyOnPurpose() async throws {
        let sandbox = Sandbox(shipped: false)
        let token = try Token.issue(appKey: "flaky", secret: "flaky-secret", userID: "u", issuedAt: WallClock.milliseconds())
        // A token service that is down every other time it is asked.
        let script = sandbox.write("""
            n=$(cat "\(sandbox.root)/count" 2>/dev/null || echo 0); echo $((n+1)) > "\(sandbox.root)/count"
            if [ $((n % 2)) -eq 1 ]; then echo down >&2; exit 1; fi
            echo \(token)
            """, to: "token.sh")
        sandbox.write(#"{ "appKey": "flaky", "appSecret": "flaky-secret", "server": "embedded", "accounts": { "u": { "userId": "u", "tokenCommand": "sh \#(script)" } } }"#, to: "profiles/f.json")
        sandbox.write("connect u --timeout 5\n", to: "f.imsh")
        let run = try await Self.test(sandbox, ["--jobs", "1", "--repeat", "4", "\(sandbox.root)/f.imsh"])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("2/4 passed (flaky)"), "\(run.stdout)")
        #expect(Self.closingLine(run) == "0 passed, 1 failed")
    }

    @Test func parallelScenariosWithTheSameAccountsDoNotSeeEachOther() async throws {
        let sandbox = Sandbox()
        for name in ["a", "b"] {
            sandbox.write("""
                connect alice-laptop bob-phone
                send alice-laptop bob "from \(name)"
                expect bob-phone message from alice "from \(name)" --within 5
                expect bob-phone no message --for 1.5
                expect bob-phone stays connected --for 0.5
                """, to: "sc/\(name).imsh")
        }
        let run = try await Self.test(sandbox, ["--jobs", "2", "\(sandbox.root)/sc"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(Self.closingLine(run) == "2 passed, 0 failed")
    }

    @Test func aHangingScenarioIsEndedAtItsTimeoutNamingItsStep() async throws {
        let sandbox = Sandbox()
        sandbox.write("connect bob-phone\nsleep 120\n", to: "hang.imsh")
        let started = ContinuousClock.now
        let run = try await Self.test(sandbox, ["--timeout", "1", "\(sandbox.root)/hang.imsh"])
        #expect(started.duration(to: .now) < .seconds(20))
        #expect(run.status == 1)
        #expect(run.stdout.contains("\(sandbox.root)/hang.imsh:2: timed out after 1 s in: sleep 120"), "\(run.stdout)")
    }

    @Test func anUnreachableServerFailsItsScenariosUpFront() async throws {
        let sandbox = Sandbox(shipped: false)
        let closed = try LoopbackPortHold()
        defer { closed.release() }
        sandbox.write(#"{ "appKey": "k", "server": "mqtt://127.0.0.1:\#(closed.port)", "accounts": { "a": { "userId": "a", "token": "t" } } }"#, to: "profiles/down.json")
        sandbox.write("connect a --timeout 60\n", to: "sc/one.imsh")
        sandbox.write("connect a\nwait a connected --timeout 60\n", to: "sc/two.imsh")
        let started = ContinuousClock.now
        let run = try await Self.test(sandbox, ["\(sandbox.root)/sc"])
        #expect(started.duration(to: .now) < .seconds(20), "not one timeout per step")
        #expect(run.status == 1)
        #expect(run.stdout.components(separatedBy: "the server cannot be reached").count == 3, "\(run.stdout)")
        #expect(Self.closingLine(run) == "0 passed, 2 failed")
    }

    @Test func usageErrorsAreExitTwoAndBadScenariosAreCheckedBeforeAnythingRuns() async throws {
        let sandbox = Sandbox()
        sandbox.write("connect bob-phone\nconect bob-phone\nconnect zz\nwait bob-phone nosuch\n", to: "bad/bad.imsh")
        // Would leave a trace if it ran: its data directory is inside the sandbox.
        sandbox.write("connect bob-phone\n", to: "bad/good.imsh")
        let run = try await Self.test(sandbox, ["\(sandbox.root)/bad"])
        #expect(run.status == 2)
        let file = "\(sandbox.root)/bad/bad.imsh"
        for line in [2, 3, 4] { #expect(run.stderr.contains("\(file):\(line): "), "line \(line): \(run.stderr)") }
        #expect(run.stdout.isEmpty, "nothing ran: \(run.stdout)")
        sandbox.write("", to: "empty/README")
        for arguments in [["test"], ["test", "\(sandbox.root)/empty"], ["test", "\(sandbox.root)/missing"], ["test", "--jobs", "0", "x"], ["test", "--bogus", "x"]] {
            let refused = try await ImshProcess.run(arguments, home: sandbox.root)
            #expect(refused.status == 2, "\(arguments): \(refused.stderr)")
        }
    }
}
