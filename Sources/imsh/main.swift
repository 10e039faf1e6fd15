import IMShell
#if canImport(Glibc)
import Glibc
#endif

exit(await Imsh.main(arguments: Array(CommandLine.arguments.dropFirst())))
