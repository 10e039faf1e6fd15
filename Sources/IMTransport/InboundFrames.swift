import Synchronization

/// The frames a connection receives, as an async sequence (see `Connection.frames()`).
public struct InboundFrames: AsyncSequence, Sendable {
    public typealias Element = [UInt8]
    public typealias Failure = TransportError

    let queue: FrameQueue

    public func makeAsyncIterator() -> Iterator {
        Iterator(queue: queue)
    }

    public struct Iterator: AsyncIteratorProtocol {
        let queue: FrameQueue

        /// The next frame; nil once the connection closed locally or the task was cancelled.
        public mutating func next() async throws(TransportError) -> [UInt8]? {
            try await queue.next().get()
        }

        /// A frame that has already arrived, without waiting; nil when none is buffered.
        ///
        /// Lets a consumer take what came in together as one batch (one database transaction
        /// for a burst of messages) after `next()` returned the first of them.
        public mutating func nextIfBuffered() -> [UInt8]? {
            queue.poll()
        }
    }

    /// Puts `tap` before the queue, from the frames already queued on: call before the first
    /// `next()`, so that no frame the tap would take has gone to the consumer. Returns once
    /// it is in place, or at once when the connection's loop has stopped.
    public func tap(_ tap: any FrameTap) async {
        let connection = queue.connection, queue = self.queue
        let done = OneShot<Void>()
        let install: @Sendable () -> Void = {
            queue.install(tap)
            done.fulfil(())
        }
        if connection.loop.inEventLoop {
            install()
        } else if !connection.loop.execute(install) {
            return
        }
        await done.wait()
    }
}

/// Frames handed from the loop to one async consumer, with back-pressure on the socket.
final class FrameQueue: Sendable {
    private struct State {
        var frames: [[UInt8]] = []
        var head = 0
        var finished = false
        var failure: TransportError?
        var waiter: CheckedContinuation<Result<[UInt8]?, TransportError>, Never>?
        var paused = false
        var tap: (any FrameTap)?

        var count: Int { frames.count - head }

        mutating func pop() -> [UInt8] {
            let frame = frames[head]
            frames[head] = []
            head += 1
            if head == frames.count {
                frames = []
                head = 0
            }
            return frame
        }
    }

    let connection: Connection
    let limit: Int
    private let state = Mutex(State())

    init(connection: Connection, limit: Int) {
        self.connection = connection
        self.limit = limit
    }

    /// Loop side: runs the frames queued so far through `tap`, keeping those it leaves in
    /// order, and gives it every frame from now on.
    func install(_ tap: any FrameTap) {
        let queued = state.withLock { state -> [[UInt8]] in
            state.tap = tap
            var frames: [[UInt8]] = []
            while state.count > 0 { frames.append(state.pop()) }
            return frames
        }
        for frame in queued where !tap.take(frame, from: connection) {
            if push(frame, tapped: true) { connection.pauseReading() }
        }
        // Reading paused on a full queue that the tap has emptied would wait for a consumer
        // that may have nothing left to take.
        let resume = state.withLock { state in
            guard state.paused && state.count <= limit / 2 else { return false }
            state.paused = false
            return true
        }
        if resume { connection.resumeReading() }
    }

    /// Loop side: hands a frame over; true when the connection should pause reading.
    func push(_ frame: [UInt8], tapped: Bool = false) -> Bool {
        if !tapped, let tap = state.withLock({ $0.tap }), tap.take(frame, from: connection) { return false }
        let (waiter, pause) = state.withLock { state in
            if let waiter = state.waiter {
                state.waiter = nil
                return (Optional(waiter), false)
            }
            state.frames.append(frame)
            guard !state.paused && state.count >= limit else { return (nil, false) }
            state.paused = true
            return (nil, true)
        }
        waiter?.resume(returning: .success(frame))
        return pause
    }

    /// Loop side: the connection closed; nil error means a local close.
    func finish(_ error: TransportError?) {
        let waiter = state.withLock { state in
            state.finished = true
            state.failure = error
            return state.waiter.take()
        }
        waiter?.resume(returning: error.map { .failure($0) } ?? .success(nil))
    }

    /// Consumer side: a buffered frame, or nil at once when there is none.
    func poll() -> [UInt8]? {
        let (frame, resume) = state.withLock { state -> ([UInt8]?, Bool) in
            guard state.count > 0 else { return (nil, false) }
            let frame = state.pop()
            let resume = state.paused && state.count <= limit / 2
            if resume { state.paused = false }
            return (frame, resume)
        }
        if resume {
            connection.loop.execute { [connection] in connection.resumeReading() }
        }
        return frame
    }

    /// Consumer side: the next frame, nil at the end, or the error the connection ended with (once).
    func next() async -> Result<[UInt8]?, TransportError> {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let (ready, resume) = state.withLock { state -> (Result<[UInt8]?, TransportError>?, Bool) in
                    if state.count > 0 {
                        let frame = state.pop()
                        let resume = state.paused && state.count <= limit / 2
                        if resume { state.paused = false }
                        return (.success(frame), resume)
                    }
                    if state.finished {
                        defer { state.failure = nil }
                        return (state.failure.map { .failure($0) } ?? .success(nil), false)
                    }
                    if Task.isCancelled { return (.success(nil), false) }
                    state.waiter = continuation
                    return (nil, false)
                }
                if resume {
                    connection.loop.execute { [connection] in connection.resumeReading() }
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiter.take() }
            waiter?.resume(returning: .success(nil))
        }
    }
}

/// Feeds a connection's frames into a `FrameQueue`; lives on the loop.
final class FrameQueueHandler: ConnectionHandler {
    let queue: FrameQueue

    init(_ queue: FrameQueue) {
        self.queue = queue
    }

    func connection(_ connection: Connection, didReceive frame: [UInt8]) {
        if queue.push(frame) { connection.pauseReading() }
    }

    func connection(_ connection: Connection, didCloseWith error: TransportError?) {
        queue.finish(error)
    }
}
