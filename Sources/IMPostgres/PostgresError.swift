/// An error from libpq or the server: a connection that could not be made or was lost, or a
/// statement the server refused (with its SQLSTATE).
public struct PostgresError: Error, Sendable, CustomStringConvertible {
    /// What failed.
    public enum Kind: Sendable {
        /// Cannot connect, or the connection was lost: the caller may try again later.
        case connection
        /// The server answered the statement with an error.
        case query
    }

    public var kind: Kind
    public var sqlState: SQLState?
    /// libpq's message, without its trailing newline.
    public var message: String

    public init(kind: Kind, sqlState: SQLState? = nil, message: String) {
        self.kind = kind
        self.sqlState = sqlState
        self.message = message
    }

    public var description: String {
        switch kind {
        case .connection: "PostgreSQL connection: \(message)"
        case .query: "PostgreSQL\(sqlState.map { " \($0.rawValue)" } ?? ""): \(message)"
        }
    }
}
