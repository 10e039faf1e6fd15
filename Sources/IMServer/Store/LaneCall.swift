import IMStore

/// One call of `SQLiteMessageLane`, waiting for its turn: `run` does its work inside the
/// turn's transaction, with the writer every call of the turn shares; `finish` answers it after.
struct LaneCall {
    /// What a call does to the file, which decides when it may run.
    enum Kind {
        case read
        case write
        /// A write nobody waits for (acknowledgements: what the device has is not resent
        /// while its connection lasts). It joins the next turn that runs anything, so the
        /// pages it shares with the messages stored then are written once; at the latest it
        /// runs `SQLiteMessageLane.lateWriteDelay` after it was asked for.
        case lateWrite
    }

    /// How a transaction of calls ended.
    enum Outcome {
        case committed
        /// Another connection holds the lock; nothing ran.
        case locked(DatabaseError)
        /// A call failed, with its own failure in its outcome; everything was undone.
        case callFailed
        /// Beginning or committing failed; everything was undone.
        case failed(any Error)
    }

    let kind: Kind
    /// What the call is called in an error.
    let operation: String
    /// Returns the call's failure, if it failed.
    let run: (inout MessageWriter) -> (any Error)?
    let finish: ((any Error)?) -> Void
}
