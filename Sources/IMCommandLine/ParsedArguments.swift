/// The options and positional arguments of one command line.
public struct ParsedArguments: Sendable, Equatable {
    /// Values by long option name; a repeated option keeps every value in order.
    public var values: [String: [String]] = [:]
    /// Flags (options without a value) that were given, by long name.
    public var flags: Set<String> = []
    /// Arguments that are not options, in order.
    public var positionals: [String] = []

    public init() {}

    /// The last value given for `name`, if any.
    public func value(_ name: String) -> String? { values[name]?.last }

    /// Whether the flag `name` was given.
    public func has(_ name: String) -> Bool { flags.contains(name) }
}
