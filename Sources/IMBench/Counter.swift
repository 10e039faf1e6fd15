import Synchronization

/// A count shared by tasks and read by the progress line.
package final class Counter: Sendable {
    private let count = Atomic(0)

    package init() {}

    package func increment(by amount: Int = 1) { count.add(amount, ordering: .relaxed) }

    package var value: Int { count.load(ordering: .relaxed) }
}
