import IMBench
import IMCommandLine
import IMProcess
import IMShell
#if canImport(Glibc)
import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())

// What shell completion asks of imsh: its script (from the specs the parsers use), and the
// profile names, found where the shell itself would look for them.
CompletionScript.printIfAsked(
    arguments, spec: ShellOptions.spec, tree: CompletionTree(ShellOptions.spec, subcommands: [Bench.completionTree, ScenarioTest.completionTree], arguments: .files))
if arguments.first != "bench", arguments.first != "test", case .run(let parsed)? = try? ArgumentParser(spec: ShellOptions.spec).parse(arguments),
    parsed.has("--list-profiles"), let options = try? ShellOptions(parsed)
{
    let names = ShellStartup(options: options).context.profiles.profiles.map(\.name)
    CommandLineTool.writeOut(names.map { $0 + "\n" }.joined())
    exit(0)
}

// What a token command leaves outside its process group (setsid, a daemon) is adopted by imsh
// and killed when the command's run ends.
if arguments.first != "bench" { Orphans.adopt() }

// `imsh bench ...` runs the benchmarks (IMBench), `imsh test ...` scenarios; anything else is the shell.
exit(await Imsh.main(arguments: arguments, subcommands: ["bench": Bench.main, "test": ScenarioTest.main]))
