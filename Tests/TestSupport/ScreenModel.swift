/// What a person would see on an 80x24 terminal after the editor's output: a grid that applies
/// printable characters, CR, LF (scrolling into `scrollback`), backspace, tab, insert mode and
/// the CSI sequences libedit uses with `xterm` (cursor moves, erase, insert/delete characters).
/// Colour and other modes are ignored.
public struct ScreenModel {
    public let columns: Int
    public let rowCount: Int
    public private(set) var grid: [[Character]]
    public private(set) var scrollback: [String] = []
    public private(set) var row = 0
    public private(set) var column = 0
    private var insertMode = false
    private var pendingWrap = false

    public init(columns: Int = 80, rows: Int = 24) {
        self.columns = columns
        rowCount = rows
        grid = Array(repeating: Array(repeating: " ", count: columns), count: rows)
    }

    public init(bytes: [UInt8], columns: Int = 80, rows: Int = 24) {
        self.init(columns: columns, rows: rows)
        apply(bytes)
    }

    /// The visible rows, without trailing spaces.
    public var lines: [String] { grid.map(Self.trimmed) }

    /// Everything that scrolled off, then the visible rows.
    public var allLines: [String] { scrollback + lines }

    /// The row the cursor is on.
    public var cursorLine: String { lines[row] }

    /// Whether the cursor's row holds just `prompt`, with the cursor right after it.
    public func showsOnly(prompt: String) -> Bool {
        cursorLine == Self.trimmed(Array(prompt)) && column == prompt.count
    }

    /// The row above the cursor's.
    public var lineAboveCursor: String { row > 0 ? lines[row - 1] : scrollback.last ?? "" }

    public mutating func apply(_ bytes: [UInt8]) {
        var scalars = String(decoding: bytes, as: UTF8.self).unicodeScalars[...]
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "\u{1B}": escape(&scalars)
            case "\r": column = 0; pendingWrap = false
            case "\n": lineFeed(); pendingWrap = false
            case "\u{8}": column = max(0, column - 1); pendingWrap = false
            case "\t": column = min(columns - 1, (column / 8 + 1) * 8)
            default:
                if scalar.value >= 0x20, scalar.value != 0x7F { put(Character(scalar)) }
            }
        }
    }

    private mutating func put(_ character: Character) {
        if pendingWrap {
            column = 0
            lineFeed()
            pendingWrap = false
        }
        if insertMode {
            grid[row].insert(character, at: column)
            grid[row].removeLast()
        } else {
            grid[row][column] = character
        }
        if column == columns - 1 { pendingWrap = true } else { column += 1 }
    }

    private mutating func lineFeed() {
        if row == rowCount - 1 {
            scrollback.append(Self.trimmed(grid.removeFirst()))
            grid.append(Array(repeating: " ", count: columns))
        } else {
            row += 1
        }
    }

    private mutating func escape(_ scalars: inout Substring.UnicodeScalarView) {
        guard let introducer = scalars.popFirst() else { return }
        switch introducer {
        case "[":
            var parameters = ""
            while let next = scalars.popFirst() {
                if (0x40...0x7E).contains(next.value) {
                    control(parameters, final: next)
                    return
                }
                parameters.unicodeScalars.append(next)
            }
        case "]":
            while let next = scalars.popFirst(), next != "\u{7}" {
                if next == "\u{1B}" { _ = scalars.popFirst(); return }
            }
        case "(", ")":
            _ = scalars.popFirst()
        default:
            break
        }
    }

    private mutating func control(_ parameters: String, final: Unicode.Scalar) {
        pendingWrap = false
        let isPrivate = parameters.hasPrefix("?")
        let numbers = parameters.drop { $0 == "?" }.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
        let first = numbers.first ?? 0
        let count = max(1, first)
        switch final {
        case "A": row = max(0, row - count)
        case "B": row = min(rowCount - 1, row + count)
        case "C": column = min(columns - 1, column + count)
        case "D": column = max(0, column - count)
        case "G": column = min(columns - 1, count - 1)
        case "H", "f":
            row = min(rowCount - 1, count - 1)
            column = min(columns - 1, max(1, numbers.count > 1 ? numbers[1] : 1) - 1)
        case "K": eraseInLine(first)
        case "J":
            eraseInLine(first)
            let rows = first == 0 ? (row + 1)..<rowCount : first == 1 ? 0..<row : 0..<rowCount
            for index in rows { grid[index] = Array(repeating: " ", count: columns) }
        case "P":
            for _ in 0..<min(count, columns - column) {
                grid[row].remove(at: column)
                grid[row].append(" ")
            }
        case "@":
            for _ in 0..<min(count, columns - column) {
                grid[row].insert(" ", at: column)
                grid[row].removeLast()
            }
        case "X":
            for index in column..<min(columns, column + count) { grid[row][index] = " " }
        case "h", "l":
            if !isPrivate, numbers.contains(4) { insertMode = final == "h" }
        default:
            break
        }
    }

    private mutating func eraseInLine(_ mode: Int) {
        let range = mode == 0 ? column..<columns : mode == 1 ? 0..<(column + 1) : 0..<columns
        for index in range { grid[row][index] = " " }
    }

    private static func trimmed(_ row: [Character]) -> String {
        var row = row[...]
        while row.last == " " { row = row.dropLast() }
        return String(row)
    }
}
