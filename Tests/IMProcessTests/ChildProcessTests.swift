import Glibc
import IMProcess
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(1)))
struct ChildProcessTests {
    @Test func collectsOutputErrorsAndStatus() throws {
        let output = try ChildProcess.run("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"], timeout: .seconds(10))
        #expect(output.termination == .exited(3))
        #expect(String(decoding: output.stdout, as: UTF8.self) == "out\n")
        #expect(String(decoding: output.stderr, as: UTF8.self) == "err\n")
        #expect(!output.timedOut)
    }

    @Test func feedsInputAndUsesEnvironmentAndDirectory() throws {
        let output = try ChildProcess.run(
            "/bin/sh", ["-c", "cat; printf '%s %s' \"$GREETING\" \"$(pwd)\""], environment: ["GREETING": "hi", "PATH": "/usr/bin:/bin"],
            directory: "/tmp", input: Array("typed\n".utf8), timeout: .seconds(10))
        #expect(String(decoding: output.stdout, as: UTF8.self) == "typed\nhi /tmp")
    }

    @Test func aChildPastItsTimeIsKilled() throws {
        let started = ContinuousClock.now
        let output = try ChildProcess.run("/bin/sleep", ["30"], timeout: .milliseconds(300))
        #expect(output.timedOut)
        #expect(output.termination == .signaled(SIGTERM))
        #expect(ContinuousClock.now - started < .seconds(10))
    }

    /// A cancelled run ends its child as at the deadline, at once: its thread is not the task's,
    /// so a task giving up reaches it only this way.
    @Test func aCancelledRunEndsItsChildAtOnce() async throws {
        let cancellation = RunCancellation()
        let started = ContinuousClock.now
        async let output = offPool {
            try ChildProcess.run("/bin/sh", ["-c", "trap '' TERM; sleep 9871"], timeout: .seconds(30), cancellation: cancellation)
        }
        while LiveProcesses.matching("sleep 9871").isEmpty && ContinuousClock.now - started < .seconds(10) {
            try await Task.sleep(for: .milliseconds(20))
        }
        cancellation.cancel()
        #expect(try await output.timedOut)
        // The grace is half a second; the deadline was 30 s away.
        #expect(ContinuousClock.now - started < .seconds(15))
        #expect(LiveProcesses.matching("sleep 9871").isEmpty)
    }

    /// A child that closes its outputs and runs on is still ended at the deadline: the run
    /// waits for its end, not only for its outputs to close.
    @Test func aChildThatClosesItsOutputsIsStillHeldToTheDeadline() throws {
        let started = ContinuousClock.now
        let output = try ChildProcess.run("/bin/sh", ["-c", "exec >/dev/null 2>&1; sleep 9875"], timeout: .milliseconds(300))
        #expect(output.timedOut)
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(LiveProcesses.matching("sleep 9875").isEmpty)
    }

    @Test func aMissingExecutableIsAReadableError() {
        #expect(throws: ChildProcessError.self) { try ChildProcess.spawn("/no/such/program", []) }
        do {
            _ = try ChildProcess.spawn("/no/such/program", [])
        } catch {
            #expect(error.description.hasPrefix("cannot start /no/such/program: posix_spawn:"))
        }
    }
}
