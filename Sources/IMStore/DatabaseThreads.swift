import Dispatch
import Synchronization

/// A fixed set of serial queues that many `DatabaseQueue`s share, handed out in turn.
///
/// Thousands of databases each on a queue of its own would let Dispatch add a thread
/// whenever one blocks in SQLite (hundreds of threads at 2,000 sessions, each with a stack).
/// Targeting these bounds the threads at `count`; each database stays serial, since its own
/// queue still orders its work.
public final class DatabaseThreads: Sendable {
    private let queues: [DispatchQueue]
    private let next = Atomic<Int>(0)

    /// `count` queues (at least one), labelled `label-0`, `label-1`, ...
    public init(count: Int, label: String = "imsh.database.thread") {
        queues = (0..<max(1, count)).map { DispatchQueue(label: "\(label)-\($0)") }
    }

    /// The queue for the next database.
    public func nextQueue() -> DispatchQueue {
        let index = next.add(1, ordering: .relaxed).oldValue
        return queues[index % queues.count]
    }
}
