import IMCommandLine

/// The words after a command's name, split into options and positional arguments.
///
/// Options are `--name VALUE`, `--name=VALUE` or a flag; `--` ends them. Unknown options are
/// usage errors naming the command's help.
struct CommandArguments {
    var positionals: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []
    let command: String

    init(_ words: ArraySlice<String>, command: String, valueOptions: Set<String> = [], flagOptions: Set<String> = []) throws(CommandSyntaxError) {
        self.command = command
        var words = words
        var optionsEnded = false
        while let word = words.popFirst() {
            guard !optionsEnded, word.hasPrefix("-"), word.count > 1, Double(word) == nil else {
                positionals.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            var name = word
            var inline: String?
            if let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                inline = String(word[word.index(after: equals)...])
            }
            if valueOptions.contains(name) {
                guard let value = inline ?? words.popFirst() else {
                    throw CommandSyntaxError("\(command): \(name) needs a value (see 'help \(command)')")
                }
                values[name] = value
            } else if flagOptions.contains(name), inline == nil {
                flags.insert(name)
            } else {
                let known = (valueOptions.union(flagOptions)).sorted()
                let hint = known.isEmpty ? "it takes no options" : "it takes \(known.joined(separator: ", "))"
                throw CommandSyntaxError("\(command): unknown option \(word); \(hint)")
            }
        }
    }

    /// Fails unless the positional count lies in `range`, naming the usage.
    func expectCount(_ range: ClosedRange<Int>) throws(CommandSyntaxError) {
        guard !range.contains(positionals.count) else { return }
        let usage = CommandCatalog.named(command)?.usage ?? command
        let problem = positionals.count < range.lowerBound ? "missing arguments" : "too many arguments"
        throw CommandSyntaxError("\(command): \(problem); usage: \(usage)")
    }

    /// The value of option `name` as a number of seconds within `range`.
    func seconds(_ name: String, in range: ClosedRange<Double>) throws(CommandSyntaxError) -> Double? {
        guard let text = values[name] else { return nil }
        return try Self.number(text, what: "\(command) \(name)", in: range)
    }

    /// The value of option `name` as a whole number within `range`.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(CommandSyntaxError) -> Int? {
        guard let text = values[name] else { return nil }
        return try Self.integer(text, what: "\(command) \(name)", in: range)
    }

    static func number(_ text: String, what: String, in range: ClosedRange<Double>) throws(CommandSyntaxError) -> Double {
        guard let value = OptionValue.number(text, in: range) else {
            throw CommandSyntaxError("\(what): '\(text)' is not a number of seconds from \(OptionValue.describe(range))")
        }
        return value
    }

    static func integer(_ text: String, what: String, in range: ClosedRange<Int>) throws(CommandSyntaxError) -> Int {
        guard let value = OptionValue.integer(text, in: range) else {
            throw CommandSyntaxError("\(what): '\(text)' is not a whole number from \(OptionValue.describe(range))")
        }
        return value
    }
}
