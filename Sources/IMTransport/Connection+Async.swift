/// The async side of `Connection`, for callers in Swift concurrency (the client engine).
extension Connection {
    /// Connects to `host:port` (a host name, an IPv4 or an IPv6 address) on `loop`.
    ///
    /// The connection comes back not yet reading: call `frames()` or `start(_:)` next.
    /// Cancelling the task abandons the attempt with `cancelled`.
    public static func connect(
        to host: String, port: UInt16, options: ConnectOptions = .init(), on loop: EventLoop
    ) async throws(TransportError) -> Connection {
        let outcome = OneShot<Result<Connection, TransportError>>()
        let attempt = ConnectAttempt(host: host, port: port, options: options, loop: loop) { outcome.fulfil($0) }
        let result = await withTaskCancellationHandler {
            attempt.start()
            return await outcome.wait()
        } onCancel: {
            attempt.cancel()
        }
        return try result.get()
    }

    /// Queues `frame` for writing, then waits while the queue is above its high-water mark.
    ///
    /// Frames go out in the order their `write` calls reach the loop. Cancelling the task
    /// stops the wait with `cancelled`, but the frame may already be queued.
    public func write(_ frame: [UInt8]) async throws(TransportError) {
        let done = OneShot<Result<Void, TransportError>>()
        let result = await withTaskCancellationHandler {
            let accepted = loop.execute { [self] in
                do throws(TransportError) {
                    if try send(frame) == .writable {
                        done.fulfil(.success(()))
                    } else {
                        state.value.writeWaiters.append(done)
                    }
                } catch {
                    done.fulfil(.failure(error))
                }
            }
            if !accepted { done.fulfil(.failure(.eventLoopStopped)) }
            return await done.wait()
        } onCancel: {
            done.fulfil(.failure(.cancelled))
        }
        try result.get()
    }

    /// Starts the connection and returns its incoming frames; use instead of `start(_:)`, once.
    ///
    /// The sequence ends after a local `close`, and throws why the connection ended otherwise
    /// (`closedByPeer`, `framing`, ...). At most `bufferLimit` frames wait for the consumer:
    /// beyond that the connection stops reading until the consumer catches up.
    public func frames(bufferLimit: Int = 64) -> InboundFrames {
        let queue = FrameQueue(connection: self, limit: max(1, bufferLimit))
        let install: @Sendable () -> Void = { [self] in start(FrameQueueHandler(queue)) }
        if loop.inEventLoop {
            install()
        } else if !loop.execute(install) {
            queue.finish(.eventLoopStopped)
        }
        return InboundFrames(queue: queue)
    }
}
