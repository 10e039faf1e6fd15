@testable import IMShell
import IMEngine
import IMProfiles
import Testing

/// `wait` awaits the book's changes instead of polling it: a watch wakes for its accounts only.
struct SessionBookWatchTests {
    let alice = AccountReference(profile: "dev", account: "alice-phone")
    let bob = AccountReference(profile: "dev", account: "bob-phone")

    @Test func aWatchWakesOnChangesToItsAccountsAndEndsWhenStopped() async {
        let book = SessionBook()
        let (changes, stop) = book.watch([alice])
        var iterator = changes.makeAsyncIterator()
        Fixtures.recordStatus(.connecting, of: bob, in: book)
        Fixtures.recordStatus(.connected, of: alice, in: book)
        #expect(await iterator.next() == alice, "woken by alice's change, and only hers")
        // Nothing more for alice: bob's change alone must not wake it, so only stop ends it.
        Fixtures.recordStatus(.connected, of: bob, in: book)
        stop()
        #expect(await iterator.next() == nil, "bob's change did not wake it; stop ended it")
    }

    @Test func aCancelledWaitEndsItsWatch() async {
        let book = SessionBook()
        let task = Task {
            let (changes, _) = book.watch([alice])
            for await _ in changes {}
            return true
        }
        task.cancel()
        #expect(await task.value, "the stream ended with its task")
        Fixtures.recordStatus(.connected, of: alice, in: book)
    }
}
