/// Rows of cells laid out in aligned columns, each cell painted after it is padded so that
/// colour codes never upset the alignment.
struct TextTable {
    struct Cell {
        var text: String
        var paint: (String) -> String

        init(_ text: String, paint: @escaping (String) -> String = { $0 }) {
            self.text = text
            self.paint = paint
        }
    }

    var rows: [[Cell]] = []

    mutating func add(_ cells: [Cell]) {
        rows.append(cells)
    }

    /// The lines, each starting with `indent`, columns two spaces apart, no trailing spaces.
    func lines(indent: String = "") -> [String] {
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in rows.map { column < $0.count ? $0[column].text.count : 0 }.max() ?? 0 }
        return rows.map { cells in
            var line = indent
            for (index, cell) in cells.enumerated() {
                let isLast = index == cells.count - 1
                let padded = isLast ? cell.text : TextRenderer.padded(cell.text, widths[index])
                line += cell.paint(padded) + (isLast ? "" : "  ")
            }
            return line
        }
    }
}
