import Foundation

/// Numbers as the reports print them: milliseconds, rates, memory sizes.
package enum Units {
    /// Milliseconds, to the microsecond.
    package static func milliseconds(_ duration: Duration) -> Double {
        rounded(BenchClock.seconds(duration) * 1000, places: 3)
    }

    package static func seconds(_ duration: Duration) -> Double {
        rounded(BenchClock.seconds(duration), places: 3)
    }

    /// Events per second over `duration`; 0 for an empty span.
    package static func rate(_ count: Int, over duration: Duration) -> Double {
        let seconds = BenchClock.seconds(duration)
        return seconds > 0 ? rounded(Double(count) / seconds, places: 1) : 0
    }

    package static func rounded(_ value: Double, places: Int) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded() / scale
    }

    /// `12.345 ms`
    package static func millisecondsText(_ duration: Duration) -> String {
        String(format: "%.3f ms", BenchClock.seconds(duration) * 1000)
    }

    /// `1.234 s`
    package static func secondsText(_ duration: Duration) -> String {
        String(format: "%.3f s", BenchClock.seconds(duration))
    }

    /// `123.4 MiB`
    package static func mebibytesText(kilobytes: Int) -> String {
        String(format: "%.1f MiB", Double(kilobytes) / 1024)
    }

    /// `12.3 KiB`
    package static func kibibytesText(_ kilobytes: Double) -> String {
        String(format: "%.1f KiB", kilobytes)
    }

    /// `1234.5`
    package static func oneDecimal(_ value: Double) -> String {
        String(format: "%.1f", value)
    }
}
