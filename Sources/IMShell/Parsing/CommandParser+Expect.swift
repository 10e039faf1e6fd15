import IMEngine
import IMProfiles

extension CommandParser {
    /// `expect ACCOUNT [no] message [from USER] [TEXT|--match REGEX]`, `expect ACCOUNT [stays] STATE
    /// [--code CODE] [--by ACCOUNT]`, `retries W,W...` or `database recreated`, with `--within S` (positive forms) or `--for S` (negative forms).
    static func parseExpect(_ input: CommandInput) throws(CommandSyntaxError) -> ShellCommand {
        let arguments = try input.arguments()
        let usage = "expect ACCOUNT [no] message [from USER] [TEXT|--match REGEX] | [stays] STATE | retries W,W... | database recreated (see 'help expect')"
        guard arguments.positionals.count >= 2 else { throw CommandSyntaxError("expect: missing arguments; usage: \(usage)") }
        let account = try reference(arguments.positionals[0], command: input.command)
        var words = arguments.positionals.dropFirst()
        let negative = words.first == "no" || words.first == "stays"
        let form = negative ? words.removeFirst() : ""
        guard let what = words.popFirst() else { throw CommandSyntaxError("expect: '\(form)' wants message or a STATE; usage: \(usage)") }
        func refuse(_ options: [String], _ why: String) throws(CommandSyntaxError) {
            for option in options where arguments.values[option] != nil { throw CommandSyntaxError("expect: \(option) \(why)") }
        }
        let within = try arguments.seconds("--within", in: 0...86_400)
        let holding = try arguments.seconds("--for", in: 0...86_400)
        if negative {
            try refuse(["--within"], "is for the positive forms; \(form) takes --for S")
        } else {
            try refuse(["--for"], "is for 'no message' and 'stays STATE'; the others take --within S")
        }
        if what == "message" {
            guard form != "stays" else { throw CommandSyntaxError("expect: stays wants a STATE, not message") }
            try refuse(["--code", "--by"], "is for a STATE, not a message")
            var pattern = try messagePattern(Array(words), regex: arguments.values["--match"])
            pattern.inOrder = arguments.flags.contains("--in-order")
            if pattern.inOrder && form == "no" { throw CommandSyntaxError("expect: --in-order is for 'message', not 'no message'") }
            return form == "no"
                ? .expect(account, Expectation(.noMessage(pattern), seconds: holding ?? Expectation.defaultFor))
                : .expect(account, Expectation(.message(pattern), seconds: within ?? Expectation.defaultWithin))
        }
        guard form != "no" else { throw CommandSyntaxError("expect: 'no' wants message, as in: expect \(account) no message --for 3") }
        if what == "retries" {
            guard form.isEmpty else { throw CommandSyntaxError("expect: stays wants a STATE, not retries") }
            try refuse(["--match", "--code", "--by"], "is not for retries")
            return .expect(account, try retries(Array(words), within: within, tolerance: try arguments.seconds("--tolerance", in: 0...60)))
        }
        if what == "database" {
            guard form.isEmpty else { throw CommandSyntaxError("expect: stays wants a STATE, not database") }
            guard words == ["recreated"] else {
                throw CommandSyntaxError("expect: database wants recreated, as in: expect \(account) database recreated")
            }
            try refuse(["--match", "--code", "--by", "--tolerance"], "is not for database")
            if arguments.flags.contains("--in-order") { throw CommandSyntaxError("expect: --in-order is for 'message'") }
            return .expect(account, Expectation(.databaseRecreated, seconds: within ?? Expectation.defaultWithin))
        }
        try refuse(["--tolerance"], "is for retries")
        if arguments.flags.contains("--in-order") { throw CommandSyntaxError("expect: --in-order is for 'message'") }
        guard let state = status(named: what) else {
            let names = ConnectionStatus.allKnown.map(\.name).joined(separator: ", ")
            throw CommandSyntaxError("expect: '\(what)' is not a status or 'message'; give one of message, \(names)")
        }
        guard words.isEmpty else { throw CommandSyntaxError("expect: too many arguments after \(what); usage: \(usage)") }
        try refuse(["--match"], "is for a message, not a STATE")
        if form == "stays" {
            try refuse(["--code", "--by"], "is for a change to a STATE, not stays")
            guard let holding else { throw CommandSyntaxError("expect: stays \(what) needs --for S (how long it must hold)") }
            return .expect(account, Expectation(.stays(state), seconds: holding))
        }
        let code = try arguments.integer("--code", in: 1...99_999).map(ConnectErrorCode.init(rawValue:))
        let by = try arguments.values["--by"].map { (word) throws(CommandSyntaxError) in try reference(word, command: "\(input.command) --by") }
        return .expect(account, Expectation(.status(state, code: code, by: by), seconds: within ?? Expectation.defaultWithin))
    }

    /// `retries W,W,...`: the waits, in seconds, of a backoff schedule's first retries. Unless
    /// `--within` says, the expectation waits for them all and 10 s more.
    private static func retries(_ words: [String], within: Double?, tolerance: Double?) throws(CommandSyntaxError) -> Expectation {
        guard words.count == 1 else { throw CommandSyntaxError("expect: retries wants the waits, as in: retries 0.05,0.25,0.5") }
        var waits: [Double] = []
        for text in words[0].split(separator: ",", omittingEmptySubsequences: false) {
            waits.append(try CommandArguments.number(String(text), what: "expect retries", in: 0...3_600))
        }
        let kind = Expectation.Kind.retries(waits, tolerance: tolerance ?? Expectation.defaultTolerance)
        return Expectation(kind, seconds: within ?? waits.reduce(Expectation.defaultWithin, +))
    }

    /// `[from USER] [TEXT...]` and `--match REGEX`: the text words are joined with one space, as `send` joins them.
    private static func messagePattern(_ words: [String], regex: String?) throws(CommandSyntaxError) -> Expectation.MessagePattern {
        var words = words[...]
        var pattern = Expectation.MessagePattern(regex: regex)
        if words.first == "from" {
            words.removeFirst()
            guard let user = words.popFirst() else { throw CommandSyntaxError("expect: from wants a user id") }
            pattern.from = user
        }
        if !words.isEmpty {
            guard regex == nil else { throw CommandSyntaxError("expect: give TEXT or --match REGEX, not both") }
            pattern.text = words.joined(separator: " ")
        }
        if let regex {
            do {
                _ = try Regex(regex)
            } catch {
                throw CommandSyntaxError("expect: --match '\(regex)' is not a regular expression: \(error)")
            }
        }
        return pattern
    }
}
