#if canImport(Glibc)
import Glibc
#endif

/// How renderers write instants: in local time for people, or UTC for reproducible output.
public enum TimelineClock: Sendable {
    case local
    case utc

    /// `HH:MM:SS`.
    public func time(_ milliseconds: Int64) -> String {
        let parts = fields(milliseconds)
        return "\(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec))"
    }

    /// `HH:MM:SS.mmm`.
    public func preciseTime(_ milliseconds: Int64) -> String {
        let fraction = Int((milliseconds % 1000 + 1000) % 1000)
        return time(milliseconds) + "." + String(String(fraction + 1000).dropFirst())
    }

    /// `YYYY-MM-DD HH:MM:SS.mmm`.
    public func dateTime(_ milliseconds: Int64) -> String {
        let parts = fields(milliseconds)
        return "\(parts.tm_year + 1900)-\(pad(parts.tm_mon + 1))-\(pad(parts.tm_mday)) \(preciseTime(milliseconds))"
    }

    private func fields(_ milliseconds: Int64) -> tm {
        var seconds = time_t(milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000)
        var parts = tm()
        switch self {
        case .local: localtime_r(&seconds, &parts)
        case .utc: gmtime_r(&seconds, &parts)
        }
        return parts
    }

    private func pad(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
