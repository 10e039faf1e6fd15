import CTransport
#if canImport(Glibc)
import Glibc
#endif

/// Tells its owner, on an event loop, when a descriptor that a library reads and writes itself
/// (libpq's socket) is ready: readable always, writable while `watchesWrites` is set.
///
/// Level-triggered, unlike the loop's own sockets: the library decides how much it reads, and
/// an edge it left unread would never fire again. The watch neither reads nor closes the
/// descriptor: `cancel()` it before the library closes it. Confined to its loop's thread, where
/// it is made; the loop keeps it alive until it is cancelled or the loop stops.
public final class DescriptorWatch {
    /// What the loop saw: the descriptor readable (or hung up), writable, or the loop stopping.
    public enum Event {
        case readable
        case writable
        case loopStopped
    }

    public let descriptor: Int32
    private let loop: EventLoop
    private var onEvent: ((Event) -> Void)?

    /// Watches `descriptor` on `loop` (call on its thread) until `cancel()`.
    public init(_ descriptor: Int32, on loop: EventLoop, onEvent: @escaping (Event) -> Void) throws(TransportError) {
        precondition(loop.inEventLoop, "DescriptorWatch made off its event loop thread")
        self.descriptor = descriptor
        self.loop = loop
        self.onEvent = onEvent
        try loop.register(descriptor, self, events: Self.reads)
    }

    /// Whether the owner is told when the descriptor is writable (while bytes wait to be sent).
    public var watchesWrites = false {
        didSet {
            guard watchesWrites != oldValue, onEvent != nil else { return }
            loop.modify(descriptor, events: watchesWrites ? Self.reads | EPOLLOUT.rawValue : Self.reads)
        }
    }

    /// Stops watching; no event is reported after this.
    public func cancel() {
        guard onEvent != nil else { return }
        onEvent = nil
        loop.deregister(descriptor)
    }

    private static let reads = EPOLLIN.rawValue | EPOLLRDHUP.rawValue
}

extension DescriptorWatch: Selectable {
    func handleEvents(_ events: UInt32) {
        if events & (EPOLLOUT.rawValue | EPOLLERR.rawValue) != 0, watchesWrites { onEvent?(.writable) }
        if events & (EPOLLIN.rawValue | EPOLLRDHUP.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 { onEvent?(.readable) }
    }

    func loopWillStop() {
        let onEvent = self.onEvent
        cancel()
        onEvent?(.loopStopped)
    }
}
