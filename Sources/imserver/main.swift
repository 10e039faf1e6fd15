import IMCommandLine

// `imserver app ...` is app administration, with its own options (AppCommand.swift);
// `imserver cert ...` writes development certificates (CertCommand.swift);
// anything else runs the server (ServeCommand.swift).
if AppCommand.isInvoked {
    await AppCommand.main()
}
if CertCommand.isInvoked {
    CertCommand.main()
}
await ServeCommand.main(arguments: Array(CommandLine.arguments.dropFirst()))
