import Foundation
import IMProcess

/// Runs the built `imserver app ...` and collects what it printed.
enum AppCommandRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String]) throws -> Result {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("imserver").path
        let output = try ChildProcess.run(binary, ["app"] + arguments, timeout: .seconds(60))
        return Result(
            status: output.termination.status,
            stdout: String(decoding: output.stdout, as: UTF8.self),
            stderr: String(decoding: output.stderr, as: UTF8.self))
    }
}
