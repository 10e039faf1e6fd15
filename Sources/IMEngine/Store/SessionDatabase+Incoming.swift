extension SessionDatabase {
    /// An incoming message as the session hands it to `receive`.
    public struct Incoming: Sendable {
        public var uid: String
        public var peer: String
        public var text: String
        public var cid: String?
        public var sentAt: Int64

        public init(uid: String, from peer: String, text: String, cid: String?, sentAt: Int64) {
            self.uid = uid
            self.peer = peer
            self.text = text
            self.cid = cid
            self.sentAt = sentAt
        }
    }
}
