/// How much one user may have stored and not yet delivered: the messages the user sent that
/// some device of a recipient has not acknowledged, counted once each, with their text's bytes.
///
/// Past either limit a PUBLISH from the user gets PUBACK 0x97 (quota exceeded) and is not
/// stored; messages from other users are unaffected, and a delivery frees room at once. The
/// server API's publish is the app's own and is not counted against it.
public struct QueueQuota: Sendable, Equatable {
    public var messages: Int
    public var bytes: Int

    /// 10,000 messages and 64 MiB: far above what a person sends to devices that are offline for
    /// the retention time, far below what fills a disk.
    public init(messages: Int = 10_000, bytes: Int = 64 << 20) {
        self.messages = messages
        self.bytes = bytes
    }

    /// Whether `usage` plus one message of `size` bytes stays within the quota.
    func admits(_ usage: QueueUsage, adding size: Int) -> Bool {
        usage.messages + 1 <= messages && usage.bytes + size <= bytes
    }
}
