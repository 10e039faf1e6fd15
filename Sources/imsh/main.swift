import IMCommandLine

let spec = CommandSpec(
    name: "imsh",
    version: imshVersion,
    summary: "drive many instant-messaging accounts at once over MQTT 5",
    usage: ["[options]"],
    epilogue: "See README.md for the state of the shell and the server."
)

_ = CommandLineTool.parseOrExit(spec)
CommandLineTool.writeOut(spec.helpText)
