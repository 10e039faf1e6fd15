import IMCommandLine

// imchaos: the fault proxy (IMChaos) as a tool, driven by commands on standard input.
let arguments = Array(CommandLine.arguments.dropFirst())
CompletionScript.printIfAsked(arguments, spec: ChaosCommand.spec, tree: CompletionTree(ChaosCommand.spec))
await ChaosCommand.main(arguments: arguments)
