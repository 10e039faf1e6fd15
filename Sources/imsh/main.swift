import IMBench
import IMChaosBench
import IMCommandLine
import IMProcess
import IMServerBench
import IMShell
#if canImport(Glibc)
import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())

// imsh's command line: the shell, unless the first argument names a subcommand: `imsh test`
// runs scenarios (IMShell), `imsh bench` the benchmarks (IMBench, the bare-client benches of
// IMServerBench and the chaos run of IMChaosBench). Usage, dispatch and the completion script all read this table.
let bench = Bench(adding: Bench.server + [Bench.chaos]).subcommand
let table = CommandTable(ShellOptions.spec, arguments: .files, subcommands: [ScenarioTest.subcommand, bench])
let selected = table.selected(by: arguments)?.subcommand

// What shell completion asks of imsh: its script, and the profile names, found where the shell
// itself would look for them.
table.printCompletionIfAsked(arguments)
if selected == nil, case .run(let parsed)? = try? ArgumentParser(spec: table.spec).parse(arguments),
    parsed.has("--list-profiles"), let options = try? ShellOptions(parsed)
{
    let names = ShellStartup(options: options).context.profiles.profiles.map(\.name)
    CommandLineTool.writeOut(names.map { $0 + "\n" }.joined())
    exit(0)
}

// What a token command leaves outside its process group (setsid, a daemon) is adopted by imsh
// and killed when the command's run ends (not under imsh bench).
if selected?.name != bench.name { Orphans.adopt() }

let status = await Imsh.main(arguments: arguments, table: table)
// A token command still running for a connect attempt given up ends with imsh, not after it.
ChildProcess.cancelRuns()
exit(status)
