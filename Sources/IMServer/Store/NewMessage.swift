/// A text message to store, as the broker or the API received it.
public struct NewMessage: Sendable, Equatable {
    public var appKey: String
    /// The sender's user id (stamped by the server, never taken from the payload).
    public var from: String
    /// The recipients' user ids; repeats are ignored.
    public var to: [String]
    /// The sender's client message id: a second message with the same app, sender and cid
    /// is a resend and is not stored again.
    public var cid: String
    public var text: String
    /// When the server received it, in ms since the epoch (`im-sent-at`).
    public var sentAt: Int64

    public init(appKey: String, from: String, to: [String], cid: String, text: String, sentAt: Int64) {
        self.appKey = appKey
        self.from = from
        self.to = to
        self.cid = cid
        self.text = text
        self.sentAt = sentAt
    }
}
