import IMCommandLine
#if canImport(Glibc)
import Glibc
#endif

// imserver's command line: serving (ServeCommand.swift) unless the first argument names a
// subcommand; usage, dispatch and the completion script all read this table.
let table = CommandTable(ServeCommand.spec, subcommands: [AppCommand.subcommand, CertCommand.subcommand])
let arguments = Array(CommandLine.arguments.dropFirst())
table.printCompletionIfAsked(arguments)
if let (subcommand, rest) = table.selected(by: arguments) {
    exit(await subcommand.run(rest))
}
await ServeCommand.main(CommandLineTool.parseOrExit(table.spec, arguments: arguments))
