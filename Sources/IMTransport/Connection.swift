/// A TCP connection that carries whole MQTT packets ("frames") in both directions, or with
/// `ConnectionFraming.raw` the bytes as they arrive (see `ConnectionOptions.framing`).
///
/// A `Connection` belongs to one `EventLoop`. The loop-side API (`start`, `send`,
/// `isWritable`, `pauseReading`, `resumeReading`) must be called on `loop`, typically from a
/// `ConnectionHandler` callback: that is the server's fast path, with no thread hops. The
/// async API (`connect`, `write`, `frames`) and `close` may be called from anywhere; they hop
/// onto the loop. The loop keeps an open connection alive until it closes.
///
/// Reading starts only once a handler is installed (`start`, or `frames()`), so no frame is
/// lost between connecting and listening. Writes are ordered and queued in a bounded buffer
/// (see `ConnectionOptions`): past the high-water mark `send` answers `.full`; past
/// `outboundLimit` the connection is closed, so a peer that stops reading never stalls others.
public final class Connection: Sendable {
    /// The loop that owns this connection.
    public let loop: EventLoop
    /// Our end of the TCP connection, asked of the socket; nil once the connection closed (its
    /// descriptor may be another's by then). Call on `loop`. Nothing on the hot path reads it,
    /// so a connection does not carry it.
    public var localAddress: SocketAddress? { isOpen ? Socket.localAddress(fileDescriptor) : nil }
    /// The peer's end (the proxy's address when connected through SOCKS5).
    public let remoteAddress: SocketAddress
    /// The limits this connection runs with.
    public var options: ConnectionOptions { setup.options }
    /// What TLS the link runs, for outgoing connections (negotiated before they are handed
    /// over); nil for plaintext, and for accepted ones, which handshake as they read.
    public var tlsSession: TLSSessionInfo? { setup.tlsSession }
    let setup: ConnectionSetup
    let fileDescriptor: Int32
    let state: LoopBound<ConnectionState>

    /// Wraps a connected stream; call on `loop`. `registered` says the descriptor is already
    /// watched by the loop (handed over by a connect attempt).
    init(
        stream: any ByteStream, remoteAddress: SocketAddress,
        setup: ConnectionSetup, loop: EventLoop, registered: Bool
    ) throws(TransportError) {
        self.loop = loop
        self.remoteAddress = remoteAddress
        self.setup = setup
        let options = setup.options
        self.fileDescriptor = stream.fileDescriptor
        self.state = LoopBound(
            confined: ConnectionState(stream: stream, options: options), loop: loop)
        if registered {
            loop.replaceHandler(of: fileDescriptor, with: self)
        } else {
            try loop.register(fileDescriptor, self)
        }
    }

    /// Installs `handler` and starts delivering frames to it. Call once, on `loop`.
    ///
    /// If the connection closed before, the handler learns it at once.
    public func start(_ handler: any ConnectionHandler) {
        let state = self.state.value
        precondition(!state.started, "Connection.start called twice")
        state.started = true
        guard state.phase != .closed else {
            handler.connection(self, didCloseWith: state.closeError)
            return
        }
        state.handler = handler
        scheduleRead(state)
    }

    /// Queues `frame` (one whole MQTT packet) for writing after those queued before. Call on `loop`.
    ///
    /// Bytes are written at the end of the loop's current turn, so a burst of frames costs one `send`.
    /// - Returns: `.full` when the queue reached the high-water mark: stop until
    ///   `connectionDidBecomeWritable`. The frame is queued either way.
    /// - Throws: `closed` once closing or closed; `outboundBufferOverflow` when this frame would
    ///   push the queue past `outboundLimit`: the connection is then closed.
    @discardableResult
    public func send(_ frame: [UInt8]) throws(TransportError) -> Writability {
        let state = self.state.value
        guard state.phase == .open else { throw state.closeError ?? .closed }
        guard state.outbound.count + frame.count <= options.outboundLimit else {
            let error = TransportError.outboundBufferOverflow(limit: options.outboundLimit)
            finish(state, error: error, abortively: true)
            throw error
        }
        state.outbound.append(frame)
        if !state.flushScheduled {
            state.flushScheduled = true
            loop.scheduleFlush(self)
        }
        if state.outbound.count >= options.highWaterMark { state.isWritable = false }
        return state.isWritable ? .writable : .full
    }

    /// Whether `send` would answer `.writable`. Call on `loop`.
    public var isWritable: Bool { state.value.isWritable }

    /// Whether the connection still reads and takes frames (not closing, not closed). Call on `loop`.
    public var isOpen: Bool { state.value.phase == .open }

    /// Bytes queued and not yet written. Call on `loop`.
    public var queuedByteCount: Int { state.value.outbound.count }

    /// Stops delivering frames (and reading from the socket) until `resumeReading`. Call on `loop`.
    public func pauseReading() {
        state.value.readingPaused = true
    }

    /// Delivers frames again, starting with those read before the pause. Call on `loop`.
    public func resumeReading() {
        let state = self.state.value
        guard state.readingPaused else { return }
        state.readingPaused = false
        scheduleRead(state)
    }

    /// Closes the connection; callable from any thread.
    ///
    /// `.graceful` writes out what is queued, sends FIN, and waits (up to `closeTimeout`) for
    /// the peer's FIN so that unread input does not turn our close into a reset. `.abortive`
    /// resets at once; `.immediate` writes what the socket takes and closes without waiting.
    /// Either way the handler's `didCloseWith` gets nil.
    public func close(_ mode: CloseMode = .graceful) {
        if loop.inEventLoop {
            closeOnLoop(mode)
        } else {
            loop.execute { [self] in closeOnLoop(mode) }
        }
    }
}
