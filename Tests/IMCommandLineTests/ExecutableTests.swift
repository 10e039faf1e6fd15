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

/// Every `HOST:PORT` option reads through the one parser: the same words for the same mistake.
struct EndpointOptionTests {
    @Test(arguments: [
        ("imserver", ["--listen", "[::1"], "--listen wants HOST:PORT, such as 127.0.0.1:1883, not '[::1': unclosed '[' in the host"),
        ("imserver", ["--api", "h"], "--api wants HOST:PORT, such as 127.0.0.1:1883, not 'h': no port; write HOST:PORT"),
        ("imserver", ["--listen", "::1:80"], "--listen wants HOST:PORT, such as 127.0.0.1:1883, not '::1:80': put an IPv6 address in brackets, as in [::1]:1883"),
        ("imchaos", ["--target", "h:0"], "--target wants HOST:PORT, such as 127.0.0.1:1883, not 'h:0': port must be a number from 1 to 65535"),
        ("imchaos", ["--target", "h:1", "--listen", "a b:1"], "--listen wants HOST:PORT, such as 127.0.0.1:1883, not 'a b:1': invalid character in host a b"),
    ])
    func aBadEndpointIsAUsageErrorWithItsReason(name: String, arguments: [String], message: String) throws {
        let result = try ProcessRunner.run(name, arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("\(name): \(message)"), "\(result.stderr)")
    }
}
