import Foundation
import Testing

/// Runs the built executables as a user would and checks help, version and usage errors.
struct ExecutableTests {
    static let executables = ["imsh", "imserver"]

    @Test(arguments: executables) func helpExitsZero(name: String) throws {
        let result = try ProcessRunner.run(name, ["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("usage: \(name)"))
        #expect(result.stderr.isEmpty)
    }

    @Test(arguments: executables) func versionExitsZero(name: String) throws {
        let result = try ProcessRunner.run(name, ["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.range(of: #"^\#(name) \d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil)
    }

    @Test(arguments: executables) func unknownFlagIsOneLineOnStderrAndExitTwo(name: String) throws {
        let result = try ProcessRunner.run(name, ["--no-such-flag"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "\(name): unknown option '--no-such-flag' (see '\(name) --help')\n")
    }
}
