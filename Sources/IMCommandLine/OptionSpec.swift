/// One option a command accepts, such as `--data DIR` or `--json`.
public struct OptionSpec: Sendable {
    /// The long name with its dashes, such as `--data`.
    public var name: String
    /// An optional one-letter alias with its dash, such as `-c`.
    public var shortName: String?
    /// The placeholder shown in help for the option's value; `nil` for a flag.
    public var valueName: String?
    /// One line of help.
    public var help: String
    /// What shell completion offers for the value.
    public var completion: ValueCompletion

    /// `completion` defaults to what the placeholder `value` implies (see `ValueCompletion`).
    public init(_ name: String, short: String? = nil, value: String? = nil, completion: ValueCompletion? = nil, help: String) {
        self.name = name
        self.shortName = short
        self.valueName = value
        self.completion = completion ?? .implied(by: value)
        self.help = help
    }

    /// Whether the option takes a value.
    public var takesValue: Bool { valueName != nil }

    func matches(_ argument: String) -> Bool {
        argument == name || (shortName != nil && argument == shortName)
    }

    var synopsis: String {
        let names = [shortName, name].compactMap { $0 }.joined(separator: ", ")
        guard let valueName else { return names }
        return "\(names) \(valueName)"
    }
}
