import Foundation
@testable import IMShell
import Testing

/// The command table is the one declaration: the man page, the parser and `help` agree with it.
/// ManPageBinaryTests runs what the pages name through the binaries.
struct CommandTableTests {
    static let manPage = ManPage("imsh.1")

    /// The `.It Ic NAME ...` lines of imsh(1): the commands it documents, in its order.
    static var documented: [(name: String, line: String)] {
        Array(zip(manPage.itemNames("Ic"), manPage.items("Ic")))
    }

    @Test func theManPageDocumentsEveryCommandInTheTableInItsOrder() {
        #expect(!Self.manPage.lines.isEmpty, "man/imsh.1 is readable")
        #expect(Self.documented.map(\.name) == CommandCatalog.all.map(\.name))
    }

    @Test func theManPageNamesEveryOptionOfEachCommand() {
        let lines = Dictionary(Self.documented.map { ($0.name, $0.line) }, uniquingKeysWith: { first, _ in first })
        for definition in CommandCatalog.all {
            for option in definition.options {
                // mdoc writes --timeout as "Fl -timeout" and -n as "Fl n".
                let macro = "Fl " + option.dropFirst()
                #expect(lines[definition.name]?.contains(macro) == true, "imsh(1) shows \(option) for \(definition.name)")
            }
        }
    }

    @Test func everyExampleParsesToItsOwnCommand() throws {
        for definition in CommandCatalog.all {
            for example in definition.examples {
                let words = try CommandTokenizer.commands(in: example).first?.words ?? []
                let command = try CommandParser.parse(words)
                #expect(command.name == definition.name, "\(example)")
            }
            #expect(CommandCatalog.named(definition.name)?.name == definition.name)
            for alias in definition.aliases { #expect(CommandCatalog.named(alias)?.name == definition.name) }
        }
    }

    @Test func optionsNotDeclaredAreRefusedNamingTheDeclaredOnes() {
        for definition in CommandCatalog.all where definition.name != "send" {
            do {
                _ = try CommandParser.parse([definition.name, "--no-such-option"])
                Issue.record("\(definition.name) took an undeclared option")
            } catch {
                let expected = definition.options.isEmpty ? "it takes no options" : "it takes \(definition.options.sorted().joined(separator: ", "))"
                #expect(error.message.hasSuffix(expected), "\(definition.name): \(error.message)")
            }
        }
    }
}
