import IMCommandLine

/// imsh's command line: where profiles and data are, and what to run.
public struct ShellOptions: Sendable, Equatable {
    public var profiles: String?
    public var data: String?
    /// The profile active at start; the first by name when nil.
    public var profile: String?
    /// Commands given with `-c`, separated by `;` or newlines.
    public var commands: String?
    /// A script file to run (`-` is standard input).
    public var scriptFile: String?
    public var json = false
    /// Draws what `link ACCOUNT loss` loses; nil draws one (the link's result names it).
    public var seed: UInt64?

    /// The largest `--seed`: what JSON numbers and every shell carry exactly.
    public static let maximumSeed = 1 << 53

    public init() {}

    /// imsh's own options and usage; its command table (imsh's main.swift) adds the subcommands' lines.
    public static let spec = CommandSpec(
        name: "imsh",
        version: imshVersion,
        summary: "drive many instant-messaging accounts at once over MQTT 5",
        usage: [
            "[options]", "[options] -c 'COMMAND; COMMAND...'", "[options] SCRIPT",
        ],
        options: [
            OptionSpec("--profiles", value: "DIR", help: "read profiles from DIR (else $IMSH_PROFILES, ./profiles, ~/.config/imsh/profiles)"),
            OptionSpec("--data", value: "DIR", help: "keep session data in DIR (else $XDG_STATE_HOME/imsh)"),
            OptionSpec("--profile", short: "-p", value: "NAME", completion: .profileNames, help: "start with profile NAME active (else the first by name)"),
            OptionSpec("--command", short: "-c", value: "COMMANDS", help: "run COMMANDS (separated by ';' or newlines) and exit"),
            OptionSpec("--json", help: "print each result and event as one JSON object per line"),
            OptionSpec("--seed", value: "N", help: "seed what 'link ACCOUNT loss' loses (default: drawn, and shown by link)"),
            OptionSpec("--list-profiles", help: "print the names of the profiles that load (what --profile accepts), one a line, and exit"),
            CompletionScript.option,
        ],
        epilogue: """
            Without -c or SCRIPT, imsh reads commands from its standard input: as a shell with a
            prompt on a terminal, as a script otherwise. Type 'help' in the shell for the commands.

            exit status: 0 every command succeeded, 1 a command failed, 2 usage error,
            3 profile error (a profile has errors, or a command needed one that did not load).

            examples:
              imsh                                  the shell, on ./profiles
              imsh -c 'connect all; status'         two commands, then exit
              imsh --json session.imsh              a script, with JSON output

            See imsh(1) and imsh-profile(5).
            """
    )

    /// Reads the parsed command line; fails on conflicting or extra arguments.
    public init(_ parsed: ParsedArguments) throws(UsageError) {
        profiles = parsed.value("--profiles")
        data = parsed.value("--data")
        profile = parsed.value("--profile")
        commands = parsed.value("--command")
        json = parsed.has("--json")
        seed = try OptionReader(parsed: parsed, command: Self.spec.name).integer("--seed", in: 0...Self.maximumSeed).map(UInt64.init)
        guard parsed.positionals.count <= 1 else {
            throw UsageError("give at most one script file (found \(parsed.positionals.count)); see 'imsh --help'")
        }
        scriptFile = parsed.positionals.first
        if commands != nil, scriptFile != nil {
            throw UsageError("give -c COMMANDS or a SCRIPT file, not both")
        }
    }
}

extension ShellOptions {
    /// A seed for a run given none: random, within what `--seed` accepts back.
    public static func drawSeed() -> UInt64 {
        UInt64.random(in: 0...UInt64(maximumSeed))
    }
}
