import IMPostgres

/// A prepared statement with its parameters, and how its rows become the caller's answer:
/// one definition whether a pooled connection runs it blocking (`PostgresConnection.run`) or
/// the message lane sends it without blocking (`PostgresLaneConnection`).
struct PostgresStatement<Answer> {
    let sql: String
    let parameters: [PostgresValue]
    /// Reads the answer from the statement's result; throws when the rows make no sense.
    let decode: (PostgresResult) throws -> Answer

    /// What the statement's `result` answers, with a failure as the store's error for `operation`.
    func answer(_ result: Result<PostgresResult, PostgresError>, operation: String, location: String) -> Result<Answer, ServerStoreError> {
        Result { try decode(result.get()) }.mapError {
            PostgresServerStore.storeError($0, operation: operation, location: location)
        }
    }
}

extension PostgresConnection {
    /// Runs `statement` (prepared on this connection) and decodes its answer.
    func run<Answer>(_ statement: PostgresStatement<Answer>) throws -> Answer {
        try statement.decode(execute(prepared: statement.sql, statement.parameters))
    }
}
