import IMStore
import Testing

/// The group-commit helper: one batch at a time, everything gathered meanwhile in the next.
struct PendingBatchTests {
    @Test func itemsGatherWhileABatchIsUnderWay() {
        var batch = PendingBatch<Int>()
        #expect(batch.next() == nil, "nothing waits")
        batch.add(1)
        #expect(batch.next() == [1] && batch.isBusy, "a lone item goes at once")
        batch.add(2)
        batch.add(3)
        #expect(batch.next() == nil, "one batch at a time")
        batch.finish()
        #expect(batch.next() == [2, 3], "what gathered goes together")
        batch.finish()
        #expect(batch.next() == nil && !batch.isBusy)
    }

    @Test func waitingItemsCanBeTakenWithoutStartingABatch() {
        var batch = PendingBatch<String>()
        batch.add("a")
        _ = batch.next()
        batch.add("b")
        #expect(batch.takeWaiting() == ["b"] && batch.waiting.isEmpty && batch.isBusy)
    }
}
