/// Checks the text of an option's value against its range: the one number reading for the
/// executables' options, the benches' and the shell's commands.
public enum OptionValue {
    /// `text` as a whole number within `range`; nil when it is not one.
    public static func integer(_ text: String, in range: ClosedRange<Int>) -> Int? {
        guard let value = Int(text), range.contains(value) else { return nil }
        return value
    }

    /// `text` as a finite number within `range`; nil when it is not one.
    public static func number(_ text: String, in range: ClosedRange<Double>) -> Double? {
        guard let value = Double(text), value.isFinite, range.contains(value) else { return nil }
        return value
    }

    /// Seconds as a duration, to the millisecond.
    public static func duration(seconds: Double) -> Duration {
        .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// `0 to 86400`, `0.001 to 10`: a range as messages print it.
    public static func describe<T: BinaryInteger>(_ range: ClosedRange<T>) -> String {
        "\(range.lowerBound) to \(range.upperBound)"
    }

    public static func describe(_ range: ClosedRange<Double>) -> String {
        "\(format(range.lowerBound)) to \(format(range.upperBound))"
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
