/// One thing a session reported, in the hub's order, with the session's state after it.
public struct SessionEvent: Sendable {
    public enum Kind: Sendable {
        /// A connect call began: the session prepares its token and database (state
        /// `preparing`), so front ends know it before its first status.
        case started
        /// The status changed (the SDK's status listener).
        case status(StatusChange)
        /// A message was received and stored.
        case message(StoredMessage)
        /// A delivery of a message already stored (the server sent it again: its PUBACK was
        /// lost, or it was in flight when the connection ended) was acknowledged and dropped,
        /// so the application sees each message once; `uid` is the message's, `peer` its sender.
        case duplicateDropped(uid: String, peer: String)
        /// The local database opened (`isRecreated`: a damaged file was moved aside, to
        /// `movedAside`), or could not.
        case databaseOpened(isRecreated: Bool, movedAside: [String], error: EngineError?)
        /// The server answered a sent message (PUBACK).
        case sendReport(SendReport)
        /// An attempt failed for `reason` and the next, number `attempt` of this connect call's
        /// schedule, starts after `delay` (the status stays connecting).
        case retryScheduled(attempt: Int, delay: Duration, reason: String)
        /// The session closed; its snapshot leaves the hub's table after this event.
        case closed
    }

    /// The hub's running number: every subscriber sees events in this order, each once.
    public let sequence: UInt64
    public let kind: Kind
    public let snapshot: SessionSnapshot
    /// When the hub recorded it: for a message, just after it was stored; for a send report,
    /// just after the PUBACK was read. What a front end that shows it later, or a bench that
    /// counts it later, measures from.
    public let at: ContinuousClock.Instant
    /// Events this subscriber did not get just before this one, because it fell behind by
    /// more than its buffer holds (0 almost always).
    public internal(set) var droppedBefore: Int = 0

    public var session: SessionID { snapshot.id }
}
