import IMCommandLine

// `imserver app ...` is app administration, with its own options (AppCommand.swift).
if AppCommand.isInvoked {
    await AppCommand.main()
}

let spec = CommandSpec(
    name: "imserver",
    version: imshVersion,
    summary: "the IM server: MQTT 5 for clients, an HTTP API for app servers",
    usage: ["[options]", "app list|block|unblock|rotate-secret [KEY] [--data DIR] [--config FILE] (see 'imserver app --help')"]
)

_ = CommandLineTool.parseOrExit(spec)
CommandLineTool.writeOut(spec.helpText)
