import IMStore

/// A send waiting for the database: sends gather in a `PendingBatch` while one batch is being
/// stored, so a session sending faster than one commit per message stores them several to a
/// transaction.
struct WaitingSend {
    let message: SessionDatabase.Outgoing
    let continuation: CheckedContinuation<StoredMessage, any Error>
}
