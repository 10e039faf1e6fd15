/// Sends waiting for the database: while one batch is being stored the next gather, so a
/// session sending faster than one commit per message stores them several to a transaction.
struct SendBatch {
    struct Waiting {
        let message: SessionDatabase.Outgoing
        let continuation: CheckedContinuation<StoredMessage, any Error>
    }

    var waiting: [Waiting] = []
    var inFlight = false
}
