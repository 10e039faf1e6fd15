/// A message as the session's local database holds it.
public struct StoredMessage: Sendable, Equatable {
    public enum Direction: Int, Sendable {
        case incoming = 0
        case outgoing = 1
    }

    public enum State: Int, Sendable {
        /// Received from the server (and acknowledged after it was stored).
        case received = 0
        /// Sent by this account, not yet acknowledged by the server; resent after reconnection.
        case pending = 1
        /// Sent and acknowledged: the server has stored it.
        case sent = 2
        /// Refused by the server (PUBACK with a failure code); not resent.
        case failed = 3
    }

    /// The row id: the local order of messages.
    public var id: Int64
    /// The server's message uid (incoming messages only).
    public var uid: String?
    /// The client message id the sender chose.
    public var cid: String?
    public var direction: Direction
    /// The other user of the conversation.
    public var peer: String
    public var text: String
    /// Milliseconds since the epoch: the server's `im-sent-at` for incoming, the send time for outgoing.
    public var sentAt: Int64
    public var state: State
}
