/// What a statement returned: its rows (empty for a command) and how many rows it touched.
public struct PostgresResult: Sendable {
    public var rows: [PostgresRow]
    /// The count in the command tag (PQcmdTuples): rows inserted, updated, deleted or selected; 0 when none.
    public var affectedRows: Int
    /// The result's column names, in order.
    public var columns: [String]

    public init(rows: [PostgresRow], affectedRows: Int, columns: [String]) {
        self.rows = rows
        self.affectedRows = affectedRows
        self.columns = columns
    }
}
