import Foundation
import IMProcess

/// Runs one of the package's built executables and collects what it printed.
enum ProcessRunner {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The directory holding the built products: the test bundle sits beside them.
    static var productsDirectory: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    static func run(_ name: String, _ arguments: [String]) throws -> Result {
        let output = try ChildProcess.run(productsDirectory.appendingPathComponent(name).path, arguments, timeout: .seconds(60))
        return Result(
            status: output.termination.status,
            stdout: String(decoding: output.stdout, as: UTF8.self),
            stderr: String(decoding: output.stderr, as: UTF8.self))
    }
}
