import Glibc
import IMProcess
import Testing
import TestSupport

/// A child that overstays takes everything it started with it, and starts with signals that
/// reach it whatever the spawning thread blocks or ignores.
@Suite(.serialized)
struct ProcessGroupTests {
    @Test(arguments: [
        ("sleep 9871", "sleep 9871"),
        ("sleep 9872 | cat", "sleep 9872"),
        ("trap '' TERM; sleep 9873", "sleep 9873"),
    ])
    func aTimedOutCommandLeavesNothingRunning(command: String, survivor: String) throws {
        let started = ContinuousClock.now
        let output = try ChildProcess.run("/bin/sh", ["-c", command], timeout: .milliseconds(300), grace: .milliseconds(200))
        #expect(output.timedOut)
        #expect(ContinuousClock.now - started < .seconds(5))
        let left = LiveProcesses.awaitGone(survivor)
        left.forEach { _ = kill($0, SIGKILL) }
        #expect(left.isEmpty, "\(survivor) outlived the run: \(left)")
    }

    @Test func whatAFinishedCommandLeftInItsGroupIsKilled() throws {
        let output = try ChildProcess.run("/bin/sh", ["-c", "sleep 9874 >/dev/null 2>&1 & echo token"], timeout: .seconds(10))
        #expect(output.termination == .exited(0))
        let left = LiveProcesses.awaitGone("sleep 9874")
        left.forEach { _ = kill($0, SIGKILL) }
        #expect(left.isEmpty)
    }

    @Test func theChildStartsWithNoSignalBlockedOrIgnored() throws {
        // The spawning thread blocks most signals and ignores SIGPIPE, as a dispatch thread may.
        var blocked = sigset_t()
        sigfillset(&blocked)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        let previousPipe = signal(SIGPIPE, SIG_IGN)
        defer {
            pthread_sigmask(SIG_SETMASK, &previous, nil)
            signal(SIGPIPE, previousPipe)
        }
        let output = try ChildProcess.run("/bin/sh", ["-c", "grep -E '^Sig(Blk|Ign)' /proc/self/status"], timeout: .seconds(10))
        let masks = String(decoding: output.stdout, as: UTF8.self).split(separator: "\n")
            .compactMap { UInt64($0.split(separator: "\t").last ?? "", radix: 16) }
        // glibc reserves signals 32 and 33 for itself; posix_spawn cannot reset them.
        let reserved: UInt64 = 0x1_8000_0000
        #expect(masks.count == 2)
        #expect(masks.map { $0 & ~reserved } == [0, 0], "blocked, ignored: \(masks.map { String($0, radix: 16) })")
    }
}
