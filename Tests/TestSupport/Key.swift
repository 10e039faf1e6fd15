/// Keys as a terminal sends them.
public enum Key {
    public static let enter = "\r"
    public static let tab = "\t"
    public static let backspace = "\u{7F}"
    public static let controlA = "\u{1}"
    public static let controlC = "\u{3}"
    public static let controlD = "\u{4}"
    public static let controlE = "\u{5}"
    public static let left = "\u{1B}[D"
    public static let up = "\u{1B}[A"
}
