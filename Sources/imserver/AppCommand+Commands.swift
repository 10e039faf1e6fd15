extension AppCommand {
    /// `imserver app`'s commands, as the first argument names them, in the order the usage gives
    /// them: its usage lines, its `commands:` list, completion and `action` all read this.
    enum Command: String, CaseIterable {
        case list, block, unblock
        case rotateSecret = "rotate-secret"

        /// The command with its argument, as the usage writes it (`block KEY`).
        var form: String { self == .list ? rawValue : "\(rawValue) KEY" }

        /// Its usage line after `imserver app`: the commands that print something take --json.
        var usage: String {
            "\(form) [--data DIR | --store URL] [--config FILE]" + (self == .list || self == .rotateSecret ? " [--json]" : "")
        }

        /// What it does, for the `commands:` list of `--help`.
        var help: String {
            switch self {
            case .list: "each app with its state (active or blocked), token lifetime, client kick policy, retention"
            case .block: "refuse every login to the app (CONNACK 0x87 app-blocked)"
            case .unblock: "lift the block, whatever the configuration file says"
            case .rotateSecret: "give the app a new random secret and print it; every token of the app stops working"
            }
        }

        /// The `commands:` list of `--help`: each form, its help from the 18th column, on a line
        /// of its own under a form too long for that.
        static var listing: String {
            let column = 15
            return allCases.map { command in
                command.form.count + 2 <= column
                    ? "  " + command.form + String(repeating: " ", count: column - command.form.count) + command.help
                    : "  \(command.form)\n" + String(repeating: " ", count: column + 2) + command.help
            }.joined(separator: "\n")
        }
    }
}
