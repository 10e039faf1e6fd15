import CPQ

extension PostgresConnection {
    /// Runs `body` between BEGIN and COMMIT; on an error from `body` (or COMMIT), rolls back and
    /// rethrows it. A COMMIT the server turns into a rollback (a statement failed inside and
    /// `body` caught it) throws a query error rather than pretending the work was saved.
    public func transaction<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try execute("BEGIN")
        let value: T
        do {
            value = try body(self)
            let commit = try open()
            let result = PQexec(commit, "COMMIT")
            defer { PQclear(result) }
            try check(result)
            if let result, String(cString: PQcmdStatus(result)) == "ROLLBACK" {
                throw PostgresError(kind: .query, message: "the transaction was rolled back: a statement in it failed")
            }
        } catch {
            if isHealthy { _ = try? execute("ROLLBACK") }
            throw error
        }
        return value
    }

    /// Rolls back a transaction a caller left open, so that the next user of a pooled connection
    /// starts outside one; closes a connection whose state is unknown.
    func endAbandonedTransaction() {
        guard let handle else { return }
        switch PQtransactionStatus(handle) {
        case PQTRANS_IDLE:
            return
        case PQTRANS_INTRANS, PQTRANS_INERROR:
            if (try? execute("ROLLBACK")) == nil { close() }
        default:
            close()
        }
    }
}
