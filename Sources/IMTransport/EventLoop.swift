import CTransport
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// One thread running an epoll loop, owning the sockets and timers registered on it.
///
/// Threading model: connections, listeners, connect attempts and timers of a loop are
/// touched only on the loop's thread. Their public types are `Sendable` shells whose mutable
/// state sits in a `LoopBound`, which traps when reached from another thread. Other threads
/// hand work over with `execute(_:)`: the task joins a locked queue and an eventfd write
/// wakes the loop, which runs queued tasks in the order they were submitted. Callbacks
/// (handlers, timers, completions) run on the loop thread and must never block it.
///
/// Sockets are edge-triggered; bytes written during one turn of the loop are flushed once
/// at the end of the turn, so a burst of frames costs one `send`. One loop carries thousands
/// of connections; an `EventLoopGroup` spreads them over a few threads. A loop runs (and its
/// thread keeps it alive) until `shutdown()`.
public final class EventLoop: Sendable {
    let thread: LoopThread
    let state: LoopBound<LoopState>
    private let epollFD: Int32
    private let wakeFD: Int32
    private let inbox = Mutex<Inbox>(Inbox())
    private let joinHandle = Mutex<pthread_t?>(nil)

    private struct Inbox {
        var tasks: [@Sendable () -> Void] = []
        var wakePending = false
        var stopping = false
    }

    /// Starts a loop on a new thread named `name`.
    public init(name: String = "imsh-loop") throws(TransportError) {
        ProcessLimits.ignoreSIGPIPE()
        let epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epollFD >= 0 else { throw .system(SystemError("epoll_create1")) }
        let wakeFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard wakeFD >= 0 else {
            let error = SystemError("eventfd")
            Glibc.close(epollFD)
            throw .system(error)
        }
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.fd = wakeFD
        guard epoll_ctl(epollFD, EPOLL_CTL_ADD, wakeFD, &event) == 0 else {
            let error = SystemError("epoll_ctl")
            Glibc.close(wakeFD)
            Glibc.close(epollFD)
            throw .system(error)
        }
        let thread = LoopThread()
        self.thread = thread
        self.epollFD = epollFD
        self.wakeFD = wakeFD
        self.state = LoopBound(LoopState(), thread: thread)
        let handle = LoopThread.spawn(name: name) { [self] in run() }
        joinHandle.withLock { $0 = handle }
    }

    /// Whether the caller runs on this loop's thread.
    public var inEventLoop: Bool { thread.isCurrent }

    /// Runs `task` on the loop thread, after tasks submitted before it.
    ///
    /// - Returns: `false` when the loop has shut down; the task then never runs.
    @discardableResult
    public func execute(_ task: @escaping @Sendable () -> Void) -> Bool {
        inbox.withLock { inbox in
            guard !inbox.stopping else { return false }
            inbox.tasks.append(task)
            wake(&inbox)
            return true
        }
    }

    /// Runs `action` on the loop thread once `delay` has passed. Call on the loop thread.
    @discardableResult
    public func scheduleTimer(after delay: Duration, _ action: @escaping () -> Void) -> TimerID {
        state.value.timers.schedule(at: monotonicNanoseconds() &+ delay.nanoseconds, action)
    }

    /// Forgets a timer that has not fired yet. Call on the loop thread.
    public func cancelTimer(_ id: TimerID) {
        state.value.timers.cancel(id)
    }

    /// Closes everything on the loop and ends its thread, waiting until it has exited.
    ///
    /// Open connections close with `eventLoopStopped`, pending connect attempts fail with it,
    /// and later `execute` calls are refused. Call from outside the loop; a second call does nothing.
    public func shutdown() {
        precondition(!inEventLoop, "EventLoop.shutdown() called on its own thread")
        let first = inbox.withLock { inbox in
            guard !inbox.stopping else { return false }
            inbox.tasks.append { [self] in state.value.running = false }
            wake(&inbox)
            inbox.stopping = true
            return true
        }
        guard first, let handle = joinHandle.withLock({ $0.take() }) else { return }
        pthread_join(handle, nil)
    }

    /// Writes the eventfd unless a wake-up is already pending. Runs under the inbox lock, so
    /// no write can reach the descriptor after the loop has closed it.
    private func wake(_ inbox: inout Inbox) {
        guard !inbox.wakePending else { return }
        inbox.wakePending = true
        var one: UInt64 = 1
        _ = Glibc.write(wakeFD, &one, MemoryLayout<UInt64>.size)
    }

    // MARK: - The loop

    private func run() {
        thread.bindToCurrentThread()
        let state = self.state.value
        while state.running {
            let count = epoll_wait(epollFD, state.events.baseAddress, Int32(state.events.count), trimOrWait(state))
            if count < 0 {
                let code = errno
                precondition(code == EINTR, "epoll_wait: \(SystemError("epoll_wait", code: code))")
                continue
            }
            for index in 0..<Int(count) {
                let event = state.events[index]
                if event.data.fd == wakeFD {
                    var counter: UInt64 = 0
                    _ = Glibc.read(wakeFD, &counter, MemoryLayout<UInt64>.size)
                } else {
                    state.handler(for: event.data.fd)?.handleEvents(event.events)
                }
            }
            runInbox()
            runSoon(state)
            runTimers(state)
            runEndOfTurn(state)
            flushConnections(state)
        }
        tearDown(state)
    }

    /// Milliseconds epoll may sleep: none when work is queued, else until the next timer.
    private func waitTimeout(_ state: LoopState) -> Int32 {
        if !state.soon.isEmpty || !state.flushQueue.isEmpty || !state.endOfTurn.isEmpty { return 0 }
        guard let deadline = state.timers.nextDeadline() else { return -1 }
        let now = monotonicNanoseconds()
        guard deadline > now else { return 0 }
        let milliseconds = (deadline - now + 999_999) / 1_000_000
        return Int32(clamping: milliseconds)
    }

    /// The wait before epoll, after a heap trim if one is asked for and due (see `HeapTrim`).
    private func trimOrWait(_ state: LoopState) -> Int32 {
        let timeout = waitTimeout(state)
        guard state.heapTrim.isRequested else { return timeout }
        let now = monotonicNanoseconds()
        let (trim, wait) = state.heapTrim.beforeWaiting(timeout: timeout, now: now)
        guard trim else { return wait }
        _ = malloc_trim(0)
        state.heapTrim.trimmed(from: now, to: monotonicNanoseconds())
        return wait
    }

    private func runInbox() {
        let tasks = inbox.withLock { inbox in
            inbox.wakePending = false
            return inbox.tasks.isEmpty ? [] : inbox.tasks.take()
        }
        for task in tasks { task() }
    }

    private func runSoon(_ state: LoopState) {
        guard !state.soon.isEmpty else { return }
        let tasks = state.soon.take()
        for task in tasks { task() }
    }

    private func runTimers(_ state: LoopState) {
        guard !state.timers.isEmpty else { return }
        for action in state.timers.takeExpired(now: monotonicNanoseconds()) { action() }
    }

    /// Runs what asked to come last in the turn, and what that asks in turn, a few rounds at
    /// most: the rest waits for the next turn, which then does not sleep.
    private func runEndOfTurn(_ state: LoopState) {
        for _ in 0..<4 where !state.endOfTurn.isEmpty {
            for task in state.endOfTurn.take() { task() }
        }
    }

    private func flushConnections(_ state: LoopState) {
        guard !state.flushQueue.isEmpty else { return }
        for connection in state.flushQueue.take() { connection.flushQueued() }
    }

    private func tearDown(_ state: LoopState) {
        for handler in state.allHandlers { handler.loopWillStop() }
        state.timers.removeAll()
        state.soon.removeAll()
        state.endOfTurn.removeAll()
        state.flushQueue.removeAll()
        Glibc.close(wakeFD)
        Glibc.close(epollFD)
        thread.unbind()
    }
}

extension EventLoop {
    /// Edge-triggered reads and writes: what the loop's own sockets are registered for.
    static let edgeTriggered = EPOLLIN.rawValue | EPOLLOUT.rawValue | EPOLLRDHUP.rawValue | EPOLLET.rawValue

    /// Registers `fd` for `events` (edge-triggered reads and writes unless given), dispatching to `handler`.
    func register(_ fd: Int32, _ handler: any Selectable, events: UInt32 = edgeTriggered) throws(TransportError) {
        var event = epoll_event()
        event.events = events
        event.data.fd = fd
        guard epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event) == 0 else { throw .system(SystemError("epoll_ctl")) }
        state.value.setHandler(handler, for: fd)
    }

    /// Changes the events a registered `fd` is watched for.
    func modify(_ fd: Int32, events: UInt32) {
        var event = epoll_event()
        event.events = events
        event.data.fd = fd
        _ = epoll_ctl(epollFD, EPOLL_CTL_MOD, fd, &event)
    }

    /// Hands a registered descriptor's events to a new handler (a connect attempt becoming a connection).
    func replaceHandler(of fd: Int32, with handler: any Selectable) {
        state.value.setHandler(handler, for: fd)
    }

    /// Stops watching `fd`; call before closing it.
    func deregister(_ fd: Int32) {
        _ = epoll_ctl(epollFD, EPOLL_CTL_DEL, fd, nil)
        state.value.removeHandler(for: fd)
    }

    /// Runs `task` on the loop thread in the next turn, never re-entrantly. Call on the loop thread.
    func executeSoon(_ task: @escaping () -> Void) {
        state.value.soon.append(task)
    }

    /// Runs `task` on the loop thread late in this turn: after the reads, queued tasks and timers
    /// of the turn, before its bytes are flushed. Call on the loop thread.
    ///
    /// Work that gains from batching (one commit for everything a turn read) gathers during the
    /// turn and runs here once; what it writes to connections leaves in the same flush.
    public func executeAtEndOfTurn(_ task: @escaping () -> Void) {
        state.value.endOfTurn.append(task)
    }

    /// Asks the loop to give freed heap memory back to the system once it is idle: for work that
    /// frees much and leaves long-lived objects around the holes (logins, closes). Call on the
    /// loop thread; cheap to call often (see `HeapTrim`).
    public func trimHeapWhenIdle() {
        state.value.heapTrim.request()
    }

    /// Queues `connection` to be flushed at the end of this turn. Call on the loop thread.
    func scheduleFlush(_ connection: Connection) {
        state.value.flushQueue.append(connection)
    }
}

extension Array {
    /// Returns the elements and leaves the array empty with its capacity released.
    mutating func take() -> [Element] {
        var taken: [Element] = []
        swap(&self, &taken)
        return taken
    }
}
