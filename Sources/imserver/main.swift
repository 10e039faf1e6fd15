import IMCommandLine

// `imserver app ...` is app administration, with its own options (AppCommand.swift);
// anything else runs the server (ServeCommand.swift).
if AppCommand.isInvoked {
    await AppCommand.main()
}
await ServeCommand.main(arguments: Array(CommandLine.arguments.dropFirst()))
