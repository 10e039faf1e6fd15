/// The mutable side of a `Connection`, confined to its event loop thread.
final class ConnectionState {
    enum Phase {
        /// Reading and writing.
        case open
        /// Closing gracefully: writing out what is queued, reading nothing.
        case flushing
        /// Closing gracefully: our FIN is sent; discarding input until the peer's FIN.
        case lingering
        case closed
    }

    let stream: any ByteStream
    var phase = Phase.open
    var handler: (any ConnectionHandler)?
    var started = false
    var readingPaused = false
    var readScheduled = false
    /// Inside `decoder.feed`, which calls the handler.
    var isDecoding = false
    var decoder: FrameDecoder
    var outbound = OutboundBuffer()
    var isWritable = true
    var flushScheduled = false
    /// Async writers waiting for the queue to drain below the low-water mark.
    var writeWaiters: [OneShot<Result<Void, TransportError>>] = []
    var closeTimer: TimerID?
    /// The reasons below, kept apart: an error is some 50 bytes and an open connection has none,
    /// so thousands of idle connections would carry two empty ones each.
    private var reasons: CloseReasons?

    /// Why the connection closed, for a handler installed after it did.
    var closeError: TransportError? {
        get { reasons?.closeError }
        set { updateReasons(setting: newValue != nil) { $0.closeError = newValue } }
    }

    /// Why a graceful close began on the stream's word (a WebSocket close or refusal), for the
    /// handler once the close completes.
    var gracefulCloseError: TransportError? {
        get { reasons?.gracefulCloseError }
        set { updateReasons(setting: newValue != nil) { $0.gracefulCloseError = newValue } }
    }

    private final class CloseReasons {
        var closeError: TransportError?
        var gracefulCloseError: TransportError?
    }

    init(stream: any ByteStream, options: ConnectionOptions) {
        self.stream = stream
        self.decoder = FrameDecoder(maximumFrameSize: options.maximumFrameSize, framing: options.framing)
    }

    /// Clearing a reason never there allocates nothing (every close clears `closeError`).
    private func updateReasons(setting: Bool, _ change: (CloseReasons) -> Void) {
        if let reasons { return change(reasons) }
        guard setting else { return }
        let created = CloseReasons()
        reasons = created
        change(created)
    }
}
