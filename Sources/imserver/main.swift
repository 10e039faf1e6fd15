import IMCommandLine

let spec = CommandSpec(
    name: "imserver",
    version: imshVersion,
    summary: "the IM server: MQTT 5 for clients, an HTTP API for app servers",
    usage: ["[options]"]
)

_ = CommandLineTool.parseOrExit(spec)
CommandLineTool.writeOut(spec.helpText)
