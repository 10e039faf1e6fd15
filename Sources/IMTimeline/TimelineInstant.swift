#if canImport(Glibc)
import Glibc
#endif

/// An instant as typed after `--until`: `now`, a time of day today (`HH:MM[:SS]`), or a local
/// date and time (`YYYY-MM-DDTHH:MM[:SS]`); resolved against the clock when the command runs.
public enum TimelineInstant: Sendable, Equatable {
    case now
    case timeOfDay(hour: Int, minute: Int, second: Int)
    case dateTime(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int)

    public static let syntax = "now, HH:MM[:SS] (today) or YYYY-MM-DDTHH:MM[:SS], local time"

    /// Reads `text`; nil when it is none of the accepted forms.
    public init?(parsing text: String) {
        if text == "now" {
            self = .now
            return
        }
        let parts = text.split(separator: "T", omittingEmptySubsequences: false)
        guard parts.count <= 2, let clock = Self.clock(String(parts.last!)) else { return nil }
        if parts.count == 1 {
            self = .timeOfDay(hour: clock.0, minute: clock.1, second: clock.2)
            return
        }
        let date = parts[0].split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        guard date.count == 3, let year = date[0], let month = date[1], let day = date[2],
              (1970...9999).contains(year), (1...12).contains(month), (1...31).contains(day) else { return nil }
        self = .dateTime(year: year, month: month, day: day, hour: clock.0, minute: clock.1, second: clock.2)
    }

    private static func clock(_ text: String) -> (Int, Int, Int)? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(fields.count), fields.allSatisfy({ $0.count == 2 }) else { return nil }
        let numbers = fields.map { Int($0) }
        guard let hour = numbers[0], let minute = numbers[1], (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        let second = numbers.count == 3 ? numbers[2] : 0
        guard let second, (0...59).contains(second) else { return nil }
        return (hour, minute, second)
    }

    /// Milliseconds since the epoch, with `now` as the present.
    public func resolve(now: Int64) -> Int64 {
        var seconds = time_t(now / 1000)
        var parts = tm()
        localtime_r(&seconds, &parts)
        switch self {
        case .now:
            return now
        case let .timeOfDay(hour, minute, second):
            (parts.tm_hour, parts.tm_min, parts.tm_sec) = (Int32(hour), Int32(minute), Int32(second))
        case let .dateTime(year, month, day, hour, minute, second):
            (parts.tm_year, parts.tm_mon, parts.tm_mday) = (Int32(year - 1900), Int32(month - 1), Int32(day))
            (parts.tm_hour, parts.tm_min, parts.tm_sec) = (Int32(hour), Int32(minute), Int32(second))
        }
        parts.tm_isdst = -1
        return Int64(mktime(&parts)) * 1000
    }

    /// A span of time as typed after `--since`: a number with `ms`, `s` (the default), `m`,
    /// `h` or `d`, such as `90s`, `10m`, `1.5h`; milliseconds, or nil when it is not one.
    public static func milliseconds(parsingDuration text: String) -> Int64? {
        let units: [(String, Double)] = [("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000)]
        let unit = units.first { text.hasSuffix($0.0) && Double(text.dropLast($0.0.count)) != nil }
        let number = Double(unit.map { String(text.dropLast($0.0.count)) } ?? text)
        guard let number, number.isFinite, number > 0, !text.hasPrefix("+") else { return nil }
        let value = number * (unit?.1 ?? 1_000)
        guard value <= 3_650 * 86_400_000 else { return nil }
        return Int64(value.rounded())
    }
}
