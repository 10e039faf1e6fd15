import IMJSON
@testable import IMShell
import Testing

/// `expect` through the real binary: messages claimed once each in arrival order, senders,
/// texts and patterns, negative forms, statuses with --code and --by, and failures that name
/// what was expected, what came instead and FILE:LINE.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct ExpectTests {
    static let messages = """
        connect alice-laptop bob-phone
        send alice-laptop bob hi
        send alice-laptop bob hi
        sleep 0.5
        expect bob-phone message from alice hi --within 2
        expect bob-phone message from alice hi --within 2
        expect bob-phone message from alice hi --within 0.5
        expect bob-phone message from carol --within 0.3
        net bob-phone down
        send alice-laptop bob "order 42"
        net bob-phone up
        expect bob-phone message --match '^order [0-9]+$' --within 10
        expect bob-phone no message --for 0.5
        send alice-laptop bob late
        expect bob-phone no message --for 1
        expect bob-phone message late --within 2
        """

    @Test func messagesAreClaimedOnceEachInArrivalOrderWithSenderTextAndPattern() async throws {
        let sandbox = Sandbox()
        let script = sandbox.write(Self.messages, to: "messages.imsh")
        let run = try await sandbox.imsh(["--json", script])
        #expect(run.status == 1, "\(run.stderr)")
        let expects = run.results().filter { $0.string("command") == "expect" }
        #expect(expects.map { $0["ok"] == true } == [true, true, false, false, true, true, false, true], "\(run.stdout)")
        let third = try #require(expects.dropFirst(2).first)
        #expect(third.string("location") == "\(script):7")
        let error = third.string("error") ?? ""
        #expect(error.hasPrefix("expect dev/bob-phone: a message from alice 'hi' within 0.5 s: none came within 0.5 s"), "\(error)")
        #expect(error.contains("recent messages: from alice 'hi' at") && error.contains("(claimed by an earlier expect)"), "\(error)")
        #expect(error.contains("recent statuses: connecting (10)"), "\(error)")
        #expect(expects[3].string("location") == "\(script):8")
        #expect(expects[6].string("error")?.contains("received from alice 'late'") == true, "no message fails on the message it saw")
        #expect(expects[7]["ok"] == true, "the message a failed no-message saw is still there to claim")
    }

    @Test func aFailureInTextOutputNamesFileAndLine() async throws {
        let sandbox = Sandbox()
        let script = sandbox.write("connect bob-phone\nexpect bob-phone message from alice hi --within 0.3\n", to: "s.imsh")
        let run = try await sandbox.imsh([script])
        #expect(run.status == 1)
        #expect(run.stderr.contains("\(script):2: error: expect dev/bob-phone: a message from alice 'hi' within 0.3 s: none came"), "\(run.stderr)")
        #expect(run.stderr.contains("recent statuses: connecting (10)") && run.stderr.contains("recent messages: none"), "\(run.stderr)")
    }

    @Test func statusesWithCodeKickerAndStays() async throws {
        let sandbox = Sandbox()
        let run = try await sandbox.json("""
            connect alice-phone
            connect alice-laptop
            sleep 0.3
            connect alice-tablet
            expect alice-phone kickedOfflineByOtherClient --code 31010 --by alice-tablet --within 5
            expect alice-phone kickedOfflineByOtherClient --by alice-laptop --within 0.5
            expect alice-phone kickedOfflineByOtherClient --code 31023 --within 5
            expect alice-tablet stays connected --for 0.5
            expect alice-phone stays connected --for 0.5
            expect alice-tablet connected
            """)
        #expect(run.status == 1)
        let expects = run.results().filter { $0.string("command") == "expect" }
        #expect(expects.map { $0["ok"] == true } == [true, false, false, true, false, true], "\(run.stdout)")
        #expect(expects[0].string("met")?.contains("dev/alice-tablet's login at") == true)
        #expect(expects[1].string("error")?.contains("the closest login was dev/alice-tablet's") == true, "\(expects[1])")
        #expect(expects[2].string("error")?.contains("not with code 31023") == true, "a kick is for good: it fails at once")
        #expect(expects[4].string("error")?.contains("went kickedOfflineByOtherClient") == true || expects[4].string("error")?.contains("it is kickedOfflineByOtherClient") == true)
    }

    /// A `connect --no-wait` answers before its call's first events reach the book: the status
    /// the account was left in before it (signOut here, userAbandon in deactivated-user.imsh on
    /// a loaded cluster) must not meet an expectation made right after it.
    @Test func theStatusBeforeAConnectNoWaitDoesNotMeetTheNextExpect() async throws {
        let sandbox = Sandbox()
        var script = "connect bob-phone\n"
        for _ in 0..<10 { script += "disconnect bob-phone\nexpect bob-phone signOut\nconnect bob-phone --no-wait\nexpect bob-phone signOut --within 0.2\nwait bob-phone connected\n" }
        let run = try await sandbox.json(script)
        let expects = run.results().filter { $0.string("command") == "expect" }
        #expect(expects.map { $0["ok"] == true } == Array(repeating: [true, false], count: 10).flatMap { $0 }, "\(run.stdout) \(run.stderr)")
    }

    @Test func expectWithoutASessionFailsAtOnce() async throws {
        let sandbox = Sandbox()
        let run = try await sandbox.json("expect bob-phone message --within 30")
        #expect(run.status == 1)
        #expect(run.result("expect")?.string("error")?.contains("has no session yet") == true)
    }

    @Test func formsThatDoNotParseAreUsageErrors() throws {
        for line in [
            "expect bob-phone", "expect bob-phone nosuchstate", "expect bob-phone message --for 2", "expect bob-phone no message --within 2",
            "expect bob-phone stays connected", "expect bob-phone message hi --match h", "expect bob-phone message --match '('",
            "expect bob-phone connected --match x", "expect bob-phone message --code 31010", "expect all connected",
            "expect bob-phone no message --in-order", "expect bob-phone connected --in-order",
            "expect bob-phone database", "expect bob-phone database gone", "expect bob-phone stays database recreated",
            "expect bob-phone database recreated --for 1", "expect bob-phone database recreated --code 1", "database bob-phone",
        ] {
            let words = try CommandTokenizer.words(in: line)
            #expect(throws: CommandSyntaxError.self, "\(line)") { try CommandParser.parse(words) }
        }
        let parsed = try CommandParser.parse(try CommandTokenizer.words(in: "expect bob-phone message from alice hello there"))
        #expect(parsed == .expect(Fixtures.reference("bob-phone"), Expectation(.message(.init(from: "alice", text: "hello there")), seconds: 10)))
    }

    /// `--in-order` counts only a message after those claimed before: sent one, two, three, the
    /// run one, two, three passes, and three then two fails on two, which came earlier.
    @Test func inOrderChecksTheOrderMessagesCameIn() async throws {
        let sandbox = Sandbox()
        let run = try await sandbox.json("""
            connect alice-laptop bob-phone
            send alice-laptop bob one
            send alice-laptop bob two
            send alice-laptop bob three
            expect bob-phone message from alice one
            expect bob-phone message from alice two --in-order
            expect bob-phone message from alice three --in-order
            send alice-laptop bob four
            send alice-laptop bob five
            expect bob-phone message from alice five
            expect bob-phone message from alice four --in-order --within 1
            expect bob-phone message from alice four
            """)
        let expects = run.results().filter { $0.string("command") == "expect" }
        #expect(expects.map { $0["ok"] == true } == [true, true, true, true, false, true], "\(run.stdout)")
        #expect(expects[4].string("error")?.contains("a message from alice 'four' after those claimed before within 1 s: none came") == true, "\(run.stdout)")
    }

    /// `database ACCOUNT damage` ends the session and damages its file; the next connect moves
    /// the file aside and makes a new one, which one `expect ... database recreated` claims: a
    /// second fails, as does one before any damage.
    @Test func aDamagedDatabaseIsRecreatedForOneExpect() async throws {
        let sandbox = Sandbox()
        let run = try await sandbox.json("""
            connect bob-phone
            expect bob-phone database recreated --within 0.3
            database bob-phone damage
            connect bob-phone
            expect bob-phone database recreated
            expect bob-phone database recreated --within 0.3
            expect bob-phone connected
            """)
        let expects = run.results().filter { $0.string("command") == "expect" }
        #expect(expects.map { $0["ok"] == true } == [false, true, false, true], "\(run.stdout)")
        #expect(expects[0].string("error")?.contains("its database recreated within 0.3 s: its database was not recreated within 0.3 s") == true,
                "\(run.stdout)")
        #expect(run.result("database")?["ok"] == true, "\(run.stdout)")
        #expect(run.stdout.contains("\"recreated\":true"), "the dbOpened event says so: \(run.stdout)")
    }
}
