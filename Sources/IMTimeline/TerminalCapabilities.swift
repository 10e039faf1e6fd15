#if canImport(Glibc)
import Glibc
#endif

/// What the terminal can show: its width, colour, and Unicode box and block characters.
public struct TerminalCapabilities: Sendable, Equatable {
    public var width: Int
    public var color: Bool
    public var unicode: Bool

    public init(width: Int, color: Bool, unicode: Bool) {
        self.width = width
        self.color = color
        self.unicode = unicode
    }

    /// The width of `descriptor`'s terminal (else `COLUMNS`, else 80); colour when it is a
    /// terminal, `TERM` is set and not `dumb`, and `NO_COLOR` is unset or empty; Unicode when
    /// the locale's character set (`LC_ALL`, else `LC_CTYPE`, else `LANG`) is UTF-8.
    public static func of(_ descriptor: Int32, environment: (String) -> String? = Self.processEnvironment) -> TerminalCapabilities {
        let isTerminal = isatty(descriptor) == 1
        var size = winsize()
        var width = 0
        if isTerminal, ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0 { width = Int(size.ws_col) }
        if width <= 0 { width = environment("COLUMNS").flatMap { Int($0) } ?? 80 }
        let term = environment("TERM") ?? ""
        let noColor = !(environment("NO_COLOR") ?? "").isEmpty
        return TerminalCapabilities(
            width: width, color: isTerminal && !term.isEmpty && term != "dumb" && !noColor,
            unicode: isUTF8Locale(environment))
    }

    /// The locale's character set is UTF-8, by the POSIX precedence of its variables.
    public static func isUTF8Locale(_ environment: (String) -> String?) -> Bool {
        var locale = "C"
        for name in ["LC_ALL", "LC_CTYPE", "LANG"] {
            if let value = environment(name), !value.isEmpty {
                locale = value
                break
            }
        }
        let lowered = locale.lowercased()
        return lowered.contains("utf-8") || lowered.contains("utf8")
    }

    public static func processEnvironment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
