import Foundation
import Testing

/// Runs the built executables as a user would and checks help, version and usage errors.
struct ExecutableTests {
    static let executables = ["imsh", "imserver", "imchaos"]

    @Test(arguments: executables) func helpExitsZero(name: String) throws {
        let result = try ProcessRunner.run(name, ["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("usage: \(name)"))
        #expect(result.stderr.isEmpty)
    }

    @Test(arguments: executables) func versionExitsZero(name: String) throws {
        let result = try ProcessRunner.run(name, ["--version"])
        #expect(result.status == 0)
        // A plain `swift build` does not know the commit; scripts/install's build does (scripts/test-install).
        #expect(result.stdout.range(of: #"^\#(name) \d+\.\d+\.\d+ \(commit [^)\n]+\)\n$"#, options: .regularExpression) != nil)
    }

    @Test(arguments: executables) func unknownFlagIsOneLineOnStderrAndExitTwo(name: String) throws {
        let result = try ProcessRunner.run(name, ["--no-such-flag"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "\(name): unknown option '--no-such-flag' (see '\(name) --help')\n")
    }
}
