import IMCommandLine
import Testing

struct ArgumentParserTests {
    let parser = ArgumentParser(spec: CommandSpec(
        name: "tool", version: "1.2.3", summary: "a tool", usage: ["[options] FILE"],
        options: [
            OptionSpec("--data", value: "DIR", help: "data directory"),
            OptionSpec("--command", short: "-c", value: "CMD", help: "run CMD"),
            OptionSpec("--json", help: "machine-readable output"),
        ]))

    @Test func splitsOptionsValuesAndPositionals() throws {
        let outcome = try parser.parse(["--data", "/tmp/d", "-c", "status", "--json", "script.txt", "--data=/x"])
        guard case .run(let parsed) = outcome else {
            Issue.record("expected run, got \(outcome)")
            return
        }
        #expect(parsed.values["--data"] == ["/tmp/d", "/x"])
        #expect(parsed.value("--data") == "/x")
        #expect(parsed.value("--command") == "status")
        #expect(parsed.has("--json"))
        #expect(parsed.positionals == ["script.txt"])
    }

    @Test func doubleDashEndsOptions() throws {
        #expect(try parser.parse(["--", "--json"]) == .run({
            var p = ParsedArguments()
            p.positionals = ["--json"]
            return p
        }()))
    }

    @Test func helpAndVersionWin() throws {
        #expect(try parser.parse(["--json", "--help"]) == .help)
        #expect(try parser.parse(["-h"]) == .help)
        #expect(try parser.parse(["--version", "--json"]) == .version)
    }

    @Test func unknownOptionIsAOneLineUsageError() {
        #expect(throws: UsageError("unknown option '--nope' (see 'tool --help')")) {
            try parser.parse(["--nope"])
        }
        #expect(throws: UsageError("unknown option '--nope' (see 'tool --help')")) {
            try parser.parse(["--nope=3"])
        }
    }

    @Test func missingValueAndValueOnFlagAreErrors() {
        #expect(throws: UsageError("option '--data' needs a value DIR")) { try parser.parse(["--data"]) }
        #expect(throws: UsageError("option '--json' takes no value")) { try parser.parse(["--json=1"]) }
    }

    @Test func helpTextListsEveryOption() {
        let help = parser.spec.helpText
        for name in ["--data DIR", "-c, --command CMD", "--json", "-h, --help", "--version", "usage: tool [options] FILE"] {
            #expect(help.contains(name), "help lacks \(name)")
        }
    }
}
