import Foundation
import IMProcess
import Testing
import TestSupport

/// `--advertise`, `--node-listen` and `--drain-timeout` on imserver's command line: usage errors
/// (exit 2) that say why.
@Suite(.timeLimit(.minutes(1)))
struct ImserverDrainOptionTests {
    @Test(arguments: [
        (["--advertise", "127.0.0.1:1884"], "--advertise goes with --store"),
        (["--advertise", "127.0.0.1"], "--advertise wants HOST:PORT"),
        (["--node-listen", "127.0.0.1:7001"], "--node-listen goes with --store"),
        (["--drain-timeout", "soon"], "--drain-timeout"),
        (["--drain-timeout", "7200"], "--drain-timeout"),
    ])
    func aBadValueIsAUsageError(options: [String], said: String) async throws {
        let directory = TemporaryDirectory()
        let run = try await offPool {
            try ChildProcess.run(ImserverProcess.binary, ["--listen", "127.0.0.1:0", "--api", "127.0.0.1:0", "--data", directory.path] + options,
                                 timeout: .seconds(20))
        }
        #expect(run.termination == .exited(2))
        #expect(String(decoding: run.stderr, as: UTF8.self).contains(said))
    }
}
