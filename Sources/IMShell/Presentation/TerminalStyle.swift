import IMEngine
#if canImport(Glibc)
import Glibc
#endif

/// ANSI colours for text output: on a terminal only, and never with `NO_COLOR` set.
public struct TerminalStyle: Sendable {
    public var isEnabled: Bool

    public init(isEnabled: Bool) {
        self.isEnabled = isEnabled
    }

    public static let plain = TerminalStyle(isEnabled: false)

    /// Colours when `descriptor` is a terminal and `NO_COLOR` is unset or empty (no-color.org).
    public static func forOutput(_ descriptor: Int32, environment: (String) -> String? = { getenv($0).map { String(cString: $0) } }) -> TerminalStyle {
        let noColor = environment("NO_COLOR").map { !$0.isEmpty } ?? false
        return TerminalStyle(isEnabled: isatty(descriptor) == 1 && !noColor)
    }

    func paint(_ text: String, _ code: String) -> String {
        isEnabled && !text.isEmpty ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    func bold(_ text: String) -> String { paint(text, "1") }
    func dim(_ text: String) -> String { paint(text, "2") }
    func red(_ text: String) -> String { paint(text, "31") }
    func green(_ text: String) -> String { paint(text, "32") }
    func yellow(_ text: String) -> String { paint(text, "33") }
    func cyan(_ text: String) -> String { paint(text, "36") }

    /// `name (value)`, green when connected, yellow on the way, red when it ended badly.
    func status(_ status: ConnectionStatus) -> String {
        let text = "\(status.name) (\(status.rawValue))"
        switch status {
        case .connected: return green(text)
        case .connecting, .networkUnavailable, .suspend: return yellow(text)
        case .unknown, .signOut: return dim(text)
        default: return red(text)
        }
    }
}
