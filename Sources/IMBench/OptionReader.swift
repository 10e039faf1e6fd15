import IMCommandLine

/// Reads typed option values, with usage errors that name the option and what it wants.
struct OptionReader {
    let parsed: ParsedArguments
    /// The command, as `imsh bench connect`, for "see --help" hints.
    let command: String

    /// The integer value of `name`, within `range`; nil when the option is absent.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = parsed.value(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError("\(name) wants a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return value
    }

    /// The number value of `name`, within `range`; nil when the option is absent.
    func number(_ name: String, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
        guard let text = parsed.value(name) else { return nil }
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw UsageError("\(name) wants a number from \(Self.text(range.lowerBound)) to \(Self.text(range.upperBound)), not '\(text)'")
        }
        return value
    }

    /// Seconds as a duration; nil when the option is absent.
    func seconds(_ name: String, in range: ClosedRange<Double>) throws(UsageError) -> Duration? {
        try number(name, in: range).map { .milliseconds(Int64(($0 * 1000).rounded())) }
    }

    /// A required option's value.
    func required<T>(_ name: String, _ value: T?) throws(UsageError) -> T {
        guard let value else { throw UsageError("\(name) is required (see '\(command) --help')") }
        return value
    }

    /// Fails on positional arguments, which no bench takes.
    func noPositionals() throws(UsageError) {
        if let extra = parsed.positionals.first {
            throw UsageError("unexpected argument '\(extra)' (see '\(command) --help')")
        }
    }

    private static func text(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
