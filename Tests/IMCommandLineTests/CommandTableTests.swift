import IMCommandLine
import Testing

/// A program's usage, its dispatch and its completion read the same table of subcommands.
struct CommandTableTests {
    static let table = CommandTable(
        CommandSpec(name: "tool", version: "1", summary: "a tool", usage: ["[options]"]),
        subcommands: [
            Subcommand(CommandSpec(name: "tool zeta", version: "1", summary: "z", usage: []), synopsis: "Z", run: { _ in 7 }),
            Subcommand(CommandSpec(name: "tool alpha", version: "1", summary: "a", usage: []), synopsis: "[A]", run: { $0 == ["x"] ? 0 : 1 }),
        ])

    @Test func usageGivesEachSubcommandALineAfterTheProgramsOwn() {
        #expect(Self.table.spec.usage == ["[options]", "zeta Z (see 'tool zeta --help')", "alpha [A] (see 'tool alpha --help')"])
        #expect(Self.table.spec.helpText.contains("       tool alpha [A] (see 'tool alpha --help')\n"))
    }

    @Test func completionOffersTheSubcommandsByName() {
        #expect(Self.table.completionTree.subcommands.map(\.name) == ["alpha", "zeta"])
        #expect(Self.table.completionTree.name == "tool")
    }

    @Test func theFirstArgumentSelectsASubcommandWhichGetsTheRest() async {
        let selected = Self.table.selected(by: ["alpha", "x"])
        #expect(selected?.subcommand.name == "alpha" && selected?.arguments == ["x"])
        #expect(await selected?.subcommand.run(["x"]) == 0)
        #expect(Self.table.selected(by: []) == nil)
        #expect(Self.table.selected(by: ["--help", "alpha"]) == nil)
    }

    @Test func choicesReadAsASentence() {
        #expect(UsageError.choices([]) == "")
        #expect(UsageError.choices(["a"]) == "a")
        #expect(UsageError.choices(["a", "b"]) == "a or b")
        #expect(UsageError.choices(["a", "b", "c"]) == "a, b or c")
    }
}
