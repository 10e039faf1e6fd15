import Synchronization

/// A fixed set of event loops, one thread each, handed out round-robin.
///
/// Size it to the cores the work may use: the server spreads accepted connections over
/// all loops, the client engine puts each session on `next()`.
public final class EventLoopGroup: Sendable {
    /// The loops, in the order `next()` hands them out.
    public let loops: [EventLoop]
    private let cursor = Atomic<UInt>(0)

    /// Starts `threads` loops (at least one), named `name-0`, `name-1`, ...
    public init(threads: Int = 1, name: String = "imsh-loop") throws(TransportError) {
        var loops: [EventLoop] = []
        do {
            for index in 0..<max(1, threads) {
                loops.append(try EventLoop(name: "\(name)-\(index)"))
            }
        } catch {
            for loop in loops { loop.shutdown() }
            throw error
        }
        self.loops = loops
    }

    /// The next loop in turn; safe from any thread.
    public func next() -> EventLoop {
        let index = cursor.wrappingAdd(1, ordering: .relaxed).oldValue
        return loops[Int(index % UInt(loops.count))]
    }

    /// Shuts every loop down (see `EventLoop.shutdown()`). Call from outside the loops.
    public func shutdown() {
        for loop in loops { loop.shutdown() }
    }
}
