/// What `storeMessage` did with one message.
public struct StoredMessageResult: Sendable, Equatable {
    /// The message uid (`im-msg-uid`): 22 URL-safe characters, the time then 80 random bits,
    /// unique in practice: the 80 random bits make two alike as good as impossible (neither store
    /// keeps an index of uids: no query looks a message up by it).
    public var uid: String
    /// The message's place in store order; what `acknowledge` takes.
    public var messageID: Int64
    /// When the message was stored, in ms: for a duplicate, the first copy's time.
    public var sentAt: Int64
    /// True when the same (app, sender, cid) was stored before: `uid` is the first copy's,
    /// and nothing was queued again.
    public var isDuplicate: Bool
    /// The registered devices it was queued for, to push at once to those online: by recipient
    /// in the order given, each recipient's devices by device id. Recipients with no device yet
    /// are not listed: their copy waits for their first device.
    public var deliveries: [Delivery]
    /// Set when the sender's quota refused the message: what the sender had waiting. Nothing
    /// was stored, `uid` is empty and `messageID` 0.
    public var overQuota: QueueUsage?

    public init(uid: String, messageID: Int64, sentAt: Int64, isDuplicate: Bool, deliveries: [Delivery],
                overQuota: QueueUsage? = nil) {
        self.uid = uid
        self.messageID = messageID
        self.sentAt = sentAt
        self.isDuplicate = isDuplicate
        self.deliveries = deliveries
        self.overQuota = overQuota
    }
}
