import IMChaos
import IMCommandLine

/// Durations as the command line writes them: `500ms`, `1s`, `2.5s`, `2m`.
enum ChaosDuration {
    static func parse(_ text: String, option: String) throws(UsageError) -> Duration {
        let units: [(suffix: String, milliseconds: Double)] = [("ms", 1), ("s", 1_000), ("m", 60_000)]
        for unit in units where text.hasSuffix(unit.suffix) {
            if let number = Double(text.dropLast(unit.suffix.count)), number > 0, number.isFinite {
                let milliseconds = number * unit.milliseconds
                if milliseconds >= 1 && milliseconds <= 86_400_000 { return .milliseconds(Int(milliseconds)) }
            }
            break
        }
        throw UsageError("\(option) wants a duration from 1ms to 24 hours, such as 500ms, 1s or 2m, not '\(text)'")
    }

    /// `1s`, `250ms`: whole seconds when they are.
    static func text(_ duration: Duration) -> String {
        let milliseconds = Fault.delay(duration).delayMilliseconds ?? 0
        return milliseconds.isMultiple(of: 1_000) ? "\(milliseconds / 1_000)s" : "\(milliseconds)ms"
    }
}
