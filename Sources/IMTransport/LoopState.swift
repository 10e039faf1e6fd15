import CTransport

/// Everything one event loop owns, touched only on its thread (it lives in a `LoopBound`).
final class LoopState {
    var running = true
    /// Handlers by file descriptor number: descriptors are small and dense.
    private var handlers: [(any Selectable)?] = []
    /// Loop-local tasks for the next turn (a read to retry, a paused reader resumed).
    var soon: [() -> Void] = []
    /// Tasks for late in this turn (see `EventLoop.executeAtEndOfTurn`).
    var endOfTurn: [() -> Void] = []
    /// Connections with bytes queued since the last turn; flushed once at the end of a turn.
    var flushQueue: [Connection] = []
    var timers = TimerQueue()
    var heapTrim = HeapTrim()
    let events: UnsafeMutableBufferPointer<epoll_event>
    /// Shared by every read on this loop, so that a connection keeps only an unfinished frame.
    let readBuffer: UnsafeMutableRawBufferPointer

    init(eventCapacity: Int = 512, readBufferSize: Int = 64 * 1024) {
        events = .allocate(capacity: eventCapacity)
        readBuffer = .allocate(byteCount: readBufferSize, alignment: 16)
    }

    deinit {
        events.deallocate()
        readBuffer.deallocate()
    }

    func handler(for fd: Int32) -> (any Selectable)? {
        Int(fd) < handlers.count ? handlers[Int(fd)] : nil
    }

    func setHandler(_ handler: any Selectable, for fd: Int32) {
        let index = Int(fd)
        if index >= handlers.count {
            handlers.append(contentsOf: repeatElement(nil, count: max(index + 1, handlers.count * 2) - handlers.count))
        }
        handlers[index] = handler
    }

    func removeHandler(for fd: Int32) {
        if Int(fd) < handlers.count { handlers[Int(fd)] = nil }
    }

    /// Every registered handler, for shutdown.
    var allHandlers: [any Selectable] {
        handlers.compactMap { $0 }
    }
}
