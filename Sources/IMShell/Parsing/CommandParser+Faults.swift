extension CommandParser {
    /// The longest `link ACCOUNT delay` the proxy is asked for, in milliseconds (one minute).
    static let maximumLinkDelay = 60_000

    /// The one word of `input` as a case of `Word` (`server stop`, `require api`), or an error
    /// saying that it is not `what` and naming the cases.
    static func oneWord<Word: RawRepresentable & CaseIterable>(
        _ input: CommandInput, what: String
    ) throws(CommandSyntaxError) -> Word where Word.RawValue == String {
        let arguments = try input.arguments()
        try arguments.expectCount(1...1)
        guard let word = Word(rawValue: arguments.positionals[0]) else {
            let names = Word.allCases.map(\.rawValue)
            let listed = names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + names.last! : names.joined()
            throw CommandSyntaxError("\(input.command): '\(arguments.positionals[0])' is not \(what); give \(listed)")
        }
        return word
    }

    /// `link ACCOUNT delay MS|loss PERCENT|blackhole|clear`.
    static func parseLink(_ input: CommandInput) throws(CommandSyntaxError) -> ShellCommand {
        let arguments = try input.arguments()
        try arguments.expectCount(2...3)
        let account = try reference(arguments.positionals[0], command: input.command)
        let word = arguments.positionals[1]
        let fault: LinkFault
        switch word {
        case "delay", "loss":
            guard arguments.positionals.count == 3 else {
                let example = word == "delay" ? "delay 200" : "loss 10"
                throw CommandSyntaxError("link: \(word) needs a number, as in: link \(arguments.positionals[0]) \(example)")
            }
            let text = arguments.positionals[2]
            fault = word == "delay"
                ? .delay(milliseconds: try CommandArguments.integer(text, what: "link delay MS", in: 0...maximumLinkDelay))
                : .loss(percent: try CommandArguments.integer(text, what: "link loss PERCENT", in: 0...100))
        case "blackhole", "clear":
            try arguments.expectCount(2...2)
            fault = word == "clear" ? .clear : .blackhole
        default:
            throw CommandSyntaxError("link: '\(word)' is not a fault; give delay MS, loss PERCENT, blackhole or clear")
        }
        return .link(account, fault)
    }
}
