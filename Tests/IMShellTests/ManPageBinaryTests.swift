import Foundation
import IMJSON
import IMProcess
import IMThreads
import IMTransport
import Testing
import TestSupport

/// The pages and the binaries cannot drift apart (issue 14): every command and option that
/// imsh(1), imserver(8) and imchaos(1) name is run through its binary, which must accept it,
/// and every command and option the binaries list (`help`, `--help`) must be in a page.
/// CommandTableTests holds imsh(1) to the command table itself.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ManPageBinaryTests {
    /// An option no page names: the binaries' refusal of it proves the parser ran to its end.
    static let sentinel = "--zz-not-an-option"

    static func run(_ tool: String, _ arguments: [String], home: String, stdin: String? = nil) async throws -> (status: Int32, output: String) {
        let path = (ImshProcess.binary as NSString).deletingLastPathComponent + "/" + tool
        let environment = ImshProcess.environment(home: home)
        let output = try await BlockingCall.run {
            try ChildProcess.run(path, arguments, environment: environment, directory: home, input: stdin.map { Array($0.utf8) }, timeout: .seconds(20))
        }
        #expect(!output.timedOut, "\(tool) \(arguments) finished")
        return (output.termination.status, String(decoding: output.stdout + output.stderr, as: UTF8.self))
    }

    /// Runs `prefix OPTION [VALUE] --zz-not-an-option`: the option is accepted when the
    /// complaint is about the sentinel (or the option answered by itself: --help, --version).
    static func expectAccepted(_ tool: String, _ prefix: [String], _ option: ManPage.Option, home: String) async throws {
        let arguments = prefix + [option.name] + (option.takesValue ? ["1"] : []) + [sentinel]
        let (status, output) = try await run(tool, arguments, home: home)
        #expect(!output.contains("unknown option '\(option.name)'") && !output.contains("needs a value"), "\(tool) \(arguments): \(output)")
        #expect(output.contains("unknown option '\(sentinel)'") || status == 0, "\(tool) \(arguments): \(output)")
    }

    @Test func aNameNoPageHasIsRefused() async throws {
        let sandbox = Sandbox(), home = sandbox.root
        for tool in ["imsh", "imserver", "imchaos"] {
            let (status, output) = try await Self.run(tool, [Self.sentinel], home: home)
            #expect(status == 2 && output.contains("unknown option '\(Self.sentinel)'"), "\(tool): \(output)")
        }
    }

    @Test(arguments: [("imsh", "imsh.1"), ("imserver", "imserver.8"), ("imchaos", "imchaos.1")])
    func everyOptionOfThePageIsAcceptedAndEveryOptionOfHelpIsInThePage(tool: String, page: String) async throws {
        let sandbox = Sandbox()
        // imsh(1) lists the bench options in BENCHMARKS, after its own.
        let options = ManPage(page).before("BENCHMARKS").listedOptions
        #expect(options.count >= 6, "\(page) lists options")
        for option in options { try await Self.expectAccepted(tool, [], option, home: sandbox.root) }
        let help = try await Self.run(tool, ["--help"], home: sandbox.root).output
        let listed = ManPage.helpOptions(help)
        #expect(!listed.isEmpty, "\(tool) --help lists options")
        #expect(listed.subtracting(options.map(\.name)).isEmpty, "\(tool) --help options missing from \(page)")
    }

    @Test func everyShellCommandAndItsOptionsAreAcceptedAndHelpNamesThem() async throws {
        let sandbox = Sandbox()
        let page = ManPage("imsh.1")
        let commands = page.itemNames("Ic")
        #expect(commands.count >= 20)
        let overview = try await sandbox.json("help")
        let listed = overview.result("help")?.objects("commands").compactMap { $0.string("name") } ?? []
        #expect(listed == commands, "`help` lists the commands imsh(1) documents, in its order")

        let each = try await sandbox.json(commands.map { "help \($0)" }.joined(separator: "; "))
        let usages = each.results().compactMap { $0.string("usage") }
        #expect(usages.count == commands.count, "help COMMAND answers for every command: \(each.stderr)")
        for (item, usage) in zip(page.items("Ic"), usages) {
            for option in ManPage.options(in: item) {
                #expect(usage.contains(option.name), "help shows \(option.name): \(usage)")
                let line = ([item.split(separator: " ")[2]] + [Substring(option.name)] + (option.takesValue ? ["1"] : []) + [Substring(Self.sentinel)]).joined(separator: " ")
                let run = try await sandbox.imsh(["-c", line])
                #expect(run.stderr.contains("unknown option \(Self.sentinel)") && !run.stderr.contains("unknown option \(option.name)"), "\(line): \(run.stderr)")
            }
        }
    }

    @Test func everyBenchAndItsOptionsAreAccepted() async throws {
        let sandbox = Sandbox()
        let section = ManPage("imsh.1").section("BENCHMARKS")
        let common = section.listedOptions
        let benches = section.items("Cm")
        #expect(benches.count >= 5 && common.count >= 5)
        for bench in benches {
            let name = String(bench.split(separator: " ")[2])
            let options = ManPage.options(in: bench) + common
            for option in options { try await Self.expectAccepted("imsh", ["bench", name], option, home: sandbox.root) }
            let help = try await Self.run("imsh", ["bench", name, "--help"], home: sandbox.root).output
            let missing = ManPage.helpOptions(help).subtracting(options.map(\.name) + ["-h", "--help", "--version"])
            #expect(missing.isEmpty, "imsh bench \(name) --help options missing from imsh(1) BENCHMARKS")
        }
        // The SYNOPSIS and `imsh --help` name the same benches as the section.
        let names = Set(benches.map { String($0.split(separator: " ")[2]) })
        let synopsis = ManPage("imsh.1").section("SYNOPSIS").lines.first { $0.hasPrefix(".Cm connect |") } ?? ""
        #expect(Set(synopsis.dropFirst(4).split(separator: " | ").map(String.init)) == names, "imsh(1) SYNOPSIS: \(synopsis)")
        let help = try await Self.run("imsh", ["--help"], home: sandbox.root).output
        let helpLine = help.split(separator: "\n").first { $0.contains("bench connect|") } ?? ""
        let helpNames = helpLine.split(separator: " ").first { $0.hasPrefix("connect|") }?.split(separator: "|").map(String.init) ?? []
        #expect(Set(helpNames) == names, "imsh --help: \(helpLine)")
    }

    @Test func everyTestOptionOfThePageIsAcceptedAndEveryOptionOfTestHelpIsInThePage() async throws {
        let sandbox = Sandbox()
        let options = ManPage("imsh.1").section("TESTING").listedOptions
        #expect(options.count >= 8)
        for option in options { try await Self.expectAccepted("imsh", ["test"], option, home: sandbox.root) }
        let help = try await Self.run("imsh", ["test", "--help"], home: sandbox.root).output
        let missing = ManPage.helpOptions(help).subtracting(options.map(\.name) + ["-h", "--help", "--version"])
        #expect(missing.isEmpty, "imsh test --help options missing from imsh(1) TESTING: \(missing)")
        let usage = try await Self.run("imsh", ["--help"], home: sandbox.root).output
        #expect(usage.contains("imsh test [options] PATH..."), "imsh --help lists test")
    }

    /// The subcommands a page's SYNOPSIS gives (`.Nm` then `.Cm NAME`) are those of the binary's
    /// command table, as the usage lines of its `--help` name them.
    @Test(arguments: [("imsh", "imsh.1"), ("imserver", "imserver.8")])
    func theSynopsisGivesTheSubcommandsOfTheUsage(tool: String, page: String) async throws {
        let sandbox = Sandbox()
        let forms = ManPage(page).section("SYNOPSIS").lines.split(separator: ".Nm").compactMap(\.first).filter { $0.hasPrefix(".Cm ") }
        let synopsis = forms.compactMap { $0.split(separator: " ").dropFirst().first.map(String.init) }
        let help = try await Self.run(tool, ["--help"], home: sandbox.root).output
        let usage = help.split(separator: "\n").filter { $0.hasPrefix("usage: \(tool) ") || $0.hasPrefix("       \(tool) ") }
            .compactMap { $0.split(separator: " ").drop { $0 != tool }.dropFirst().first.map(String.init) }
            .filter { $0.first?.isLetter == true && $0.allSatisfy { $0.isLowercase || $0 == "-" } }
        #expect(synopsis.count >= 2 && synopsis.sorted() == usage.sorted(), "\(page) SYNOPSIS: \(synopsis); \(tool) --help: \(usage)")
    }

    /// imserver's subcommands as its SYNOPSIS gives them: `cert` and `app ACTION`, each with its options.
    @Test func imserverSubcommandsAndTheirOptionsAreAccepted() async throws {
        let sandbox = Sandbox(), home = sandbox.root
        let synopsis = ManPage("imserver.8").section("SYNOPSIS").lines
        let forms = synopsis.split(separator: ".Nm").map(Array.init).filter { $0.first?.hasPrefix(".Cm ") == true }
        #expect(forms.count == 2, "cert and app")
        for form in forms {
            let words = form.filter { $0.hasPrefix(".Cm ") }.map { $0.split(separator: " ")[1] }.map(String.init)
            let options = form.flatMap(ManPage.options)
            #expect(!options.isEmpty)
            for option in options { try await Self.expectAccepted("imserver", words, option, home: home) }
            let help = try await Self.run("imserver", [words[0], "--help"], home: home).output
            let missing = ManPage.helpOptions(help).subtracting(options.map(\.name) + ["-h", "--help", "--version"])
            #expect(missing.isEmpty, "imserver \(words[0]) --help options missing from imserver(8) SYNOPSIS")
        }
    }

    @Test func imchaosConsoleCommandsAreThoseOfThePage() async throws {
        let sandbox = Sandbox(), home = sandbox.root
        let commands = ManPage("imchaos.1").section("COMMANDS").itemNames("Cm")
        #expect(commands.count >= 5)
        let port = try LoopbackPort.free()
        // Each command with too many words: refused for its arguments, not as unknown.
        let input = commands.map { "\($0) zz zz zz zz\n" }.joined() + "help\nquit\n"
        let (_, output) = try await Self.run(
            "imchaos", ["--target", "127.0.0.1:\(port)", "--listen", "127.0.0.1:0"], home: home, stdin: input)
        for command in commands { #expect(!output.contains("unknown command '\(command)'"), "imchaos takes \(command): \(output)") }
        #expect(output.contains("unknown command") == false)
        // `help` lists each command on a line of its own, indented two spaces.
        let listed = output.split(separator: "\n").filter { $0.hasPrefix("  ") && $0.dropFirst(2).first?.isLetter == true }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(Set(listed) == Set(commands), "imchaos help lists the commands of imchaos(1) COMMANDS: \(listed)")
    }
}
