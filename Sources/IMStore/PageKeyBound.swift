/// The highest page number a page cache may hold, as `TrackedPageCache` keeps it, and whether
/// a truncation has anything to drop.
///
/// SQLite's B-tree rebalance swaps two pages' numbers through a parking number, the page
/// just past the 1 GiB lock byte, within one call; a page is never left there. Counting that
/// number would leave the bound far above the file's end (SQLite's own cache does, which is
/// why this exists), so it is left out.
struct PageKeyBound: Equatable {
    /// The number a rebalance parks a page under: `PENDING_BYTE / pageSize + 1`.
    let parkingKey: UInt32
    /// No page numbered above this is in the cache.
    private(set) var highest: UInt32 = 0

    init(pageSize: Int) {
        // SQLite's lock byte sits at 2^30 (`sqlite3PendingByte`), unchanged outside its tests.
        parkingKey = UInt32(0x4000_0000 / max(1, pageSize) + 1)
    }

    /// A page was fetched, possibly created, under `key`.
    mutating func fetched(_ key: UInt32) {
        highest = max(highest, key)
    }

    /// A page was renumbered to `key`.
    mutating func renumbered(to key: UInt32) {
        guard key != parkingKey else { return }
        highest = max(highest, key)
    }

    /// Whether a truncation dropping pages numbered `limit` and above can find any.
    func mayHold(from limit: UInt32) -> Bool {
        limit <= highest
    }

    /// Pages numbered `limit` and above were dropped.
    mutating func truncated(from limit: UInt32) {
        highest = min(highest, limit == 0 ? 0 : limit - 1)
    }
}
