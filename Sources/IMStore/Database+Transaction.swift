extension Database {
    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws.
    ///
    /// Inside another transaction this becomes a savepoint, so a failing inner block
    /// undoes only its own work. `kind` applies to the outermost level.
    public func transaction<T>(_ kind: TransactionKind = .immediate, _ body: (Database) throws -> T) throws -> T {
        let nested = isInTransaction
        try executeScript(nested ? "SAVEPOINT imsh_nested" : "BEGIN \(kind.rawValue)")
        do {
            let result = try body(self)
            try executeScript(nested ? "RELEASE imsh_nested" : "COMMIT")
            if !nested && releasesMemoryAfterTransactions { releaseMemory() }
            return result
        } catch {
            // A failed COMMIT (SQLITE_BUSY, disk full) leaves the transaction open: end it too.
            if nested {
                try? executeScript("ROLLBACK TO imsh_nested")
                try? executeScript("RELEASE imsh_nested")
            } else if isInTransaction {
                try? executeScript("ROLLBACK")
            }
            throw error
        }
    }

    /// `PRAGMA user_version`: the schema version `DatabaseMigrator` maintains.
    public func userVersion() throws(DatabaseError) -> Int {
        Int(try fetchOnce("PRAGMA user_version").first?[0].int64 ?? 0)
    }

    /// Sets `PRAGMA user_version` (part of the current transaction, if any).
    public func setUserVersion(_ version: Int) throws(DatabaseError) {
        // PRAGMA takes no bound parameters; an Int cannot smuggle SQL.
        try executeScript("PRAGMA user_version=\(version)")
    }
}
