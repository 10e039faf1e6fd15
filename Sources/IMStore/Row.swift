/// One result row, copied out of a statement; values by column index.
public struct Row: Hashable, Sendable {
    public var values: [DatabaseValue]

    public init(_ values: [DatabaseValue]) {
        self.values = values
    }

    public var count: Int { values.count }

    /// The value of column `index`; a bad index is a programming error and traps.
    public subscript(index: Int) -> DatabaseValue { values[index] }
}
