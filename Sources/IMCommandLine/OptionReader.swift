import IMHTTP

/// Reads typed option values from a parsed command line, with usage errors that name the
/// option and what it wants.
public struct OptionReader: Sendable {
    public let parsed: ParsedArguments
    /// The command, as `imsh bench connect`, for "see --help" hints.
    public let command: String

    public init(parsed: ParsedArguments, command: String) {
        self.parsed = parsed
        self.command = command
    }

    /// The integer value of `name`, within `range`; nil when the option is absent.
    public func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = parsed.value(name) else { return nil }
        guard let value = OptionValue.integer(text, in: range) else {
            throw UsageError("\(name) wants a whole number from \(OptionValue.describe(range)), not '\(text)'")
        }
        return value
    }

    /// The number value of `name`, within `range`; nil when the option is absent.
    public func number(_ name: String, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
        guard let text = parsed.value(name) else { return nil }
        guard let value = OptionValue.number(text, in: range) else {
            throw UsageError("\(name) wants a number from \(OptionValue.describe(range)), not '\(text)'")
        }
        return value
    }

    /// Seconds as a duration; nil when the option is absent.
    public func seconds(_ name: String, in range: ClosedRange<Double>) throws(UsageError) -> Duration? {
        try number(name, in: range).map(OptionValue.duration(seconds:))
    }

    /// The `HOST:PORT` value of `name` (an IPv6 host in brackets), else `fallback`'s; nil when
    /// both are absent. A listening address may give port 0 (any free port).
    public func endpoint(_ name: String, default fallback: String? = nil, listening: Bool = false) throws(UsageError) -> HostPort? {
        guard let text = parsed.value(name) ?? fallback else { return nil }
        do throws(URLParseError) {
            return try HostPort(parsing: text, defaultPort: nil, allowsPortZero: listening)
        } catch {
            throw UsageError("\(name) wants HOST:PORT, such as 127.0.0.1:1883, not '\(text)': \(error.reason)")
        }
    }

    /// A required option's value.
    public func required<T>(_ name: String, _ value: T?) throws(UsageError) -> T {
        guard let value else { throw UsageError("\(name) is required (see '\(command) --help')") }
        return value
    }

    /// Fails on positional arguments, for commands that take none.
    public func noPositionals() throws(UsageError) {
        if let extra = parsed.positionals.first {
            throw UsageError("unexpected argument '\(extra)' (see '\(command) --help')")
        }
    }
}
