/// A message waiting in one device's queue until the device acknowledges it.
public struct QueuedMessage: Sendable, Equatable {
    /// The place in store order; pass it to `acknowledge`.
    public var messageID: Int64
    /// `im-msg-uid`.
    public var uid: String
    /// The sender's user id.
    public var from: String
    /// Every recipient of the message, in the order given when it was stored.
    public var to: [String]
    public var text: String
    public var cid: String
    /// `im-sent-at`, in ms since the epoch.
    public var sentAt: Int64

    public init(messageID: Int64, uid: String, from: String, to: [String], text: String, cid: String, sentAt: Int64) {
        self.messageID = messageID
        self.uid = uid
        self.from = from
        self.to = to
        self.text = text
        self.cid = cid
        self.sentAt = sentAt
    }

    /// `message` as `stored` it.
    init(_ message: NewMessage, stored: StoredMessageResult) {
        self.init(messageID: stored.messageID, uid: stored.uid, from: message.from, to: message.to, text: message.text,
                  cid: message.cid, sentAt: stored.sentAt)
    }
}
