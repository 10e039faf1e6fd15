/// What one press of TAB does, decided from the line before the cursor and the candidates.
///
/// The word being completed is the text after the last space or tab before the cursor; a
/// candidate replaces it whole, so a provider may also correct case.
struct CompletionPlan: Equatable {
    enum Action: Equatable {
        /// Nothing to offer: beep.
        case none
        /// Replace the word before the cursor with this text.
        case replaceWord(with: String)
        /// Show the candidates above the prompt.
        case list([String])
    }

    /// The word before the cursor, which `replaceWord` replaces.
    let word: Substring
    let action: Action

    init(lineBeforeCursor line: String, candidates: [String]) {
        let start = line.lastIndex { $0 == " " || $0 == "\t" }.map(line.index(after:)) ?? line.startIndex
        word = line[start...]
        var seen = Set<String>()
        let unique = candidates.filter { seen.insert($0).inserted }
        switch unique.count {
        case 0:
            action = .none
        case 1:
            let only = unique[0]
            action = .replaceWord(with: only.hasSuffix(" ") ? only : only + " ")
        default:
            let prefix = Self.commonPrefix(unique)
            if prefix.unicodeScalars.count > word.unicodeScalars.count {
                action = .replaceWord(with: prefix)
            } else {
                action = .list(unique)
            }
        }
    }

    /// The longest run of characters every string starts with.
    static func commonPrefix(_ strings: [String]) -> String {
        guard let first = strings.first else { return "" }
        var prefix = Substring(first)
        for string in strings.dropFirst() {
            prefix = prefix.prefix(zip(prefix, string).prefix { $0 == $1 }.count)
        }
        return String(prefix)
    }

    /// Lays the candidates out in columns, filled top to bottom like ls(1), within `width`.
    static func columns(_ items: [String], width: Int, displayWidth: (String) -> Int) -> [String] {
        guard !items.isEmpty else { return [] }
        let widths = items.map(displayWidth)
        let cell = (widths.max() ?? 0) + 2
        let across = max(1, min(items.count, (width + 2) / cell))
        let rows = (items.count + across - 1) / across
        return (0..<rows).map { row in
            var line = ""
            var index = row
            while index < items.count {
                let next = index + rows
                line += items[index]
                if next < items.count {
                    line += String(repeating: " ", count: cell - widths[index])
                }
                index = next
            }
            return line
        }
    }
}
