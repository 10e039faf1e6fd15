/// Splits a command line into options and positional arguments.
///
/// Accepts `--name value`, `--name=value`, `-c value`, and `--` to end options.
/// `--help` and `--version` win over everything else on the line.
public struct ArgumentParser: Sendable {
    /// What a parse asks the caller to do.
    public enum Outcome: Sendable, Equatable {
        case run(ParsedArguments)
        case help
        case version
    }

    public let spec: CommandSpec

    public init(spec: CommandSpec) { self.spec = spec }

    /// Parses `arguments` (without the program name).
    public func parse(_ arguments: [String]) throws(UsageError) -> Outcome {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument == "--help" || argument == "-h" { return .help }
            if argument == "--version" { return .version }

            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = spec.options.first(where: { $0.matches(name) }) else {
                throw UsageError("unknown option '\(name)' (see '\(spec.name) --help')")
            }
            if option.takesValue {
                if let inlineValue {
                    parsed.values[option.name, default: []].append(inlineValue)
                } else if index < arguments.count {
                    parsed.values[option.name, default: []].append(arguments[index])
                    index += 1
                } else {
                    throw UsageError("option '\(option.name)' needs a value \(option.valueName ?? "")")
                }
            } else {
                guard inlineValue == nil else {
                    throw UsageError("option '\(option.name)' takes no value")
                }
                parsed.flags.insert(option.name)
            }
        }
        return .run(parsed)
    }
}
