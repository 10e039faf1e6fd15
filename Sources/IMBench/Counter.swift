import Synchronization

/// A count shared by tasks and read by the progress line.
final class Counter: Sendable {
    private let count = Atomic(0)

    init() {}

    func increment(by amount: Int = 1) { count.add(amount, ordering: .relaxed) }

    var value: Int { count.load(ordering: .relaxed) }
}
