// imchaos: the fault proxy (IMChaos) as a tool, driven by commands on standard input.
await ChaosCommand.main(arguments: Array(CommandLine.arguments.dropFirst()))
