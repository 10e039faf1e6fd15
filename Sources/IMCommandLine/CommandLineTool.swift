#if canImport(Glibc)
import Glibc
#endif

/// Runs the shared part of every executable's start: help, version and usage errors.
public enum CommandLineTool {
    /// Exit status for a command line that cannot be run as given.
    public static let usageExitStatus: Int32 = 2

    /// Parses the process's arguments; prints help or the version and exits 0,
    /// or prints a one-line usage error to stderr and exits 2.
    public static func parseOrExit(_ spec: CommandSpec, arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> ParsedArguments {
        do {
            switch try ArgumentParser(spec: spec).parse(arguments) {
            case .run(let parsed):
                return parsed
            case .help:
                writeOut(spec.helpText)
                exit(0)
            case .version:
                writeOut("\(spec.name) \(spec.version)\n")
                exit(0)
            }
        } catch {
            fail(spec, error)
        }
    }

    /// Parses `arguments`; nil once `--help` or the version was asked for and printed (exit 0),
    /// for commands that return their exit status instead of exiting.
    public static func parseOrAnswer(_ spec: CommandSpec, _ arguments: [String], version: String) throws(UsageError) -> ParsedArguments? {
        switch try ArgumentParser(spec: spec).parse(arguments) {
        case .run(let parsed):
            return parsed
        case .help:
            writeOut(spec.helpText)
        case .version:
            writeOut(version)
        }
        return nil
    }

    /// Prints `error` as one line on stderr, prefixed with the command's name, and exits 2.
    public static func fail(_ spec: CommandSpec, _ error: UsageError) -> Never {
        writeError("\(spec.name): \(error.message)\n")
        exit(usageExitStatus)
    }

    /// Writes `text` to standard output unbuffered.
    public static func writeOut(_ text: String) { write(fd: 1, text) }

    /// Writes `text` to standard error unbuffered.
    public static func writeError(_ text: String) { write(fd: 2, text) }

    private static func write(fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
