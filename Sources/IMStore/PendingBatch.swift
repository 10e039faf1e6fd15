/// Work that gathers while one batch of it is being handled: the group commit of the engine
/// and the server, written once.
///
/// While a batch is under way (a transaction, typically) new items wait; when it finishes
/// they all go together in the next. Under load the batches grow with it, one slow call for
/// many items; a lone item waits for nothing. A value type: its owner (an actor, or the
/// server's event loop) confines it.
public struct PendingBatch<Item> {
    public private(set) var waiting: [Item] = []
    /// A batch has been taken with `next()` and not yet `finish()`ed.
    public private(set) var isBusy = false

    public init() {}

    /// Puts `item` into the next batch.
    public mutating func add(_ item: Item) {
        waiting.append(item)
    }

    /// Everything waiting, to handle now, marking a batch under way; nil when one already is,
    /// or when nothing waits.
    public mutating func next() -> [Item]? {
        guard !isBusy, !waiting.isEmpty else { return nil }
        isBusy = true
        defer { waiting = [] }
        return waiting
    }

    /// The batch under way is done; call `next()` for what gathered meanwhile.
    public mutating func finish() {
        isBusy = false
    }

    /// Takes what waits without starting a batch (its owner is going away, say).
    public mutating func takeWaiting() -> [Item] {
        defer { waiting = [] }
        return waiting
    }
}

extension PendingBatch: Sendable where Item: Sendable {}
