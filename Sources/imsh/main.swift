import IMBench
import IMShell
#if canImport(Glibc)
import Glibc
#endif

// `imsh bench ...` runs the benchmarks (IMBench); anything else is the shell.
exit(await Imsh.main(arguments: Array(CommandLine.arguments.dropFirst()), subcommands: ["bench": Bench.main]))
