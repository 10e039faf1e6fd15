/// One row of a result, its cells by column position.
public struct PostgresRow: Sendable {
    public var cells: [PostgresCell]

    public init(cells: [PostgresCell]) { self.cells = cells }

    /// The cell in `column` (0-based); the column must exist.
    public subscript(_ column: Int) -> PostgresCell { cells[column] }

    public var count: Int { cells.count }
}
