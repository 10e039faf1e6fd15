import IMCommandLine

// The completion script, from the specs below (the subcommands of `app` are its commands).
CompletionScript.printIfAsked(
    Array(CommandLine.arguments.dropFirst()), spec: ServeCommand.spec,
    tree: CompletionTree(ServeCommand.spec, subcommands: [
        CompletionTree(AppCommand.spec, subcommands: AppCommand.commandNames.map {
            CompletionTree(name: $0, summary: AppCommand.spec.summary, options: CompletionTree(AppCommand.spec).options)
        }),
    ]))

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
