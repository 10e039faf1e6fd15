import Foundation
import IMCommandLine
import IMProcess
import Testing

/// The executables' completion scripts, run in a real bash the way bash runs a completion function.
struct CompletionScriptTests {
    /// The completions bash's `complete -F` function offers for the last of `words`.
    static func complete(_ name: String, _ words: [String], directory: String? = nil) throws -> [String] {
        let script = try ProcessRunner.run(name, ["--completion", "bash"])
        #expect(script.status == 0)
        let driver = """
            source /dev/stdin
            COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
            _\(name)
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let output = try ChildProcess.run(
            "/bin/bash", ["-c", driver, "bash", name] + words, directory: directory, input: Array(script.stdout.utf8), timeout: .seconds(30))
        #expect(output.termination.status == 0, "\(String(decoding: output.stderr, as: UTF8.self))")
        return String(decoding: output.stdout, as: UTF8.self).split(separator: "\n").map(String.init).filter { !$0.isEmpty }.sorted()
    }

    /// The option names `--help` lists, short and long.
    static func helpOptions(_ name: String) throws -> [String] {
        let help = try ProcessRunner.run(name, ["--help"]).stdout
        let section = help.components(separatedBy: "options:\n")[1].components(separatedBy: "\n\n")[0]
        return section.split(separator: "\n").flatMap { line in
            line.split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",")) }
                .prefix { $0.hasPrefix("-") }
        }.sorted()
    }

    /// The subcommands `--help`'s usage lines name: the word after the program's name where it
    /// is one (`imsh test [options] PATH...`), not an option or an argument.
    static func usageSubcommands(_ name: String) throws -> [String] {
        let help = try ProcessRunner.run(name, ["--help"]).stdout
        return help.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("usage: \(name) ") || line.hasPrefix("       \(name) ") else { return nil }
            let word = line.split(separator: " ").drop { $0 != name }.dropFirst().first ?? ""
            return word.first?.isLetter == true && word.allSatisfy({ $0.isLowercase || $0 == "-" }) ? String(word) : nil
        }.sorted()
    }

    @Test(arguments: ExecutableTests.executables) func completesTheSubcommandsUsageLists(name: String) throws {
        // In an empty directory: imsh's first argument also completes to a script file.
        let directory = NSTemporaryDirectory() + "imsh-completion-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try Self.complete(name, [""], directory: directory) == Self.usageSubcommands(name))
    }

    @Test func usageLinesNameTheSubcommands() throws {
        #expect(try Self.usageSubcommands("imsh") == ["bench", "test"])
        #expect(try Self.usageSubcommands("imserver") == ["app", "cert"])
        #expect(try Self.usageSubcommands("imchaos") == [])
    }

    @Test(arguments: ExecutableTests.executables) func completesEveryOptionHelpLists(name: String) throws {
        #expect(try Self.complete(name, ["-"]) == Self.helpOptions(name))
    }

    @Test(arguments: ExecutableTests.executables) func completesTheShellsOfCompletion(name: String) throws {
        #expect(try Self.complete(name, ["--completion", ""]) == ["bash", "zsh"])
    }

    @Test func imserverCompletesAppCommandsThenTheirOptions() throws {
        #expect(try Self.complete("imserver", ["app", ""]) == ["block", "list", "rotate-secret", "unblock"])
        #expect(try Self.complete("imserver", ["app", "list", "--j"]) == ["--json"])
        #expect(try Self.complete("imserver", ["--data", "/tmp", "--l"]) == ["--listen"])
        #expect(try Self.complete("imserver", ["cert", "--h"]) == ["--help", "--host"])
    }

    @Test func imshCompletesBenchesAndTheirOptionsNotTheShells() throws {
        #expect(try Self.complete("imsh", ["bench", "re"]) == ["reconnect"])
        #expect(try Self.complete("imsh", ["bench", "reconnect", "--j"]) == ["--jitter", "--json"])
        #expect(try Self.complete("imsh", ["bench", "reconnect", "--p"]) == [])
        #expect(try Self.complete("imsh", ["--json", "-c"]) == ["-c"])
    }

    @Test func imshCompletesTestAndItsOptions() throws {
        #expect(try Self.complete("imsh", ["te"]) == ["test"])
        #expect(try Self.complete("imsh", ["test", "--j"]) == ["--jobs", "--json", "--junit"])
        #expect(try Self.complete("imsh", ["test", "--re"]) == ["--repeat"])
        #expect(try Self.complete("imsh", ["test", "--ht"]) == ["--html"])
        // --html DIR: directories, not files.
        let root = NSTemporaryDirectory() + "imsh-completion-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: "\(root)/reports", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: "\(root)/report.txt", contents: nil))
        #expect(try Self.complete("imsh", ["test", "--html", "\(root)/rep"]) == ["\(root)/reports"])
    }

    @Test(arguments: ExecutableTests.executables) func zshScriptIsAutoloadable(name: String) throws {
        let script = try ProcessRunner.run(name, ["--completion", "zsh"])
        #expect(script.status == 0)
        #expect(script.stdout.hasPrefix("#compdef \(name)\n"))
        #expect(script.stdout.contains("compdef _\(name) \(name)"))
    }

    @Test(arguments: ExecutableTests.executables) func unknownShellIsAUsageError(name: String) throws {
        let result = try ProcessRunner.run(name, ["--completion", "fish"])
        #expect(result.status == 2)
        #expect(result.stderr == "\(name): --completion wants bash or zsh, not 'fish'\n")
    }

    @Test func placeholdersImplyWhatCompletes() {
        #expect(OptionSpec("--data", value: "DIR", help: "").completion == .directories)
        #expect(OptionSpec("--config", value: "FILE", help: "").completion == .files)
        #expect(OptionSpec("--server", value: "embedded|spawn", help: "").completion == .words(["embedded", "spawn"]))
        #expect(OptionSpec("--rate", value: "R", help: "").completion == ValueCompletion.none)
        #expect(OptionSpec("--json", help: "").completion == ValueCompletion.none)
    }
}
