import IMEngine
import IMProfiles
import Synchronization

/// The messages each account received in this run, in arrival order, for `expect`: each is
/// claimed by at most one expectation, so two identical messages need two.
///
/// The book records into it before it wakes its watchers, so an expectation woken for a
/// message finds it here. Each account keeps its latest `limit` messages.
final class ReceivedMessages: Sendable {
    struct Entry: Sendable {
        var message: StoredMessage
        var claimed = false
    }

    /// Messages kept per account; older ones are forgotten, claimed or not.
    static let limit = 1000

    private let inboxes = Mutex<[AccountReference: [Entry]]>([:])

    func append(_ message: StoredMessage, for account: AccountReference) {
        inboxes.withLock { inboxes in
            inboxes[account, default: []].append(Entry(message: message))
            if let count = inboxes[account]?.count, count > Self.limit * 2 { inboxes[account]?.removeFirst(count - Self.limit) }
        }
    }

    /// Claims the earliest unclaimed message of `account` that `matches`, after the last one
    /// claimed when `afterClaimed`; nil when none does.
    func claim(_ account: AccountReference, afterClaimed: Bool = false, where matches: (StoredMessage) -> Bool) -> StoredMessage? {
        inboxes.withLock { inboxes in
            let entries = inboxes[account] ?? []
            let start = afterClaimed ? (entries.lastIndex(where: \.claimed).map { $0 + 1 } ?? 0) : 0
            guard let index = entries[start...].firstIndex(where: { !$0.claimed && matches($0.message) }) else { return nil }
            inboxes[account]?[index].claimed = true
            return inboxes[account]?[index].message
        }
    }

    /// The unclaimed messages of `account` that `match`, oldest first.
    func unclaimed(_ account: AccountReference, where matches: (StoredMessage) -> Bool) -> [StoredMessage] {
        inboxes.withLock { ($0[account] ?? []).filter { !$0.claimed && matches($0.message) }.map(\.message) }
    }

    /// The latest `count` messages of `account`, claimed or not, oldest first.
    func recent(_ account: AccountReference, _ count: Int) -> [Entry] {
        inboxes.withLock { Array(($0[account] ?? []).suffix(count)) }
    }
}
