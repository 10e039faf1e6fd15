/// The server's answers to outgoing messages that are not in the session's database yet.
///
/// A PUBACK needs no commit of its own: losing its mark costs only a resend after a restart,
/// which the server recognises by the message's cid and answers without delivering it again.
/// So the marks ride the session's next transaction, or go alone after
/// the database's `markPatience`; a read of the messages writes them first.
struct SentMarks: Sendable {
    /// Client message ids the server stored, in the order of their PUBACKs.
    var sent: [String] = []
    /// Client message ids the server refused for good.
    var failed: [String] = []
    /// A lone write of the marks is queued on the database.
    var lateWriteQueued = false

    var isEmpty: Bool { sent.isEmpty && failed.isEmpty }

    /// Takes the marks, leaving none.
    mutating func take() -> SentMarks {
        defer { sent = []; failed = [] }
        return SentMarks(sent: sent, failed: failed)
    }

    /// Puts back marks a failed transaction did not write, ahead of newer ones.
    mutating func restore(_ marks: SentMarks) {
        sent = marks.sent + sent
        failed = marks.failed + failed
    }
}
