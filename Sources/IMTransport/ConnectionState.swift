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
    /// Why the connection closed, for a handler installed after it did.
    var closeError: TransportError?
    /// Why a graceful close began on the stream's word (a WebSocket close or refusal), for the
    /// handler once the close completes.
    var gracefulCloseError: TransportError?

    init(stream: any ByteStream, options: ConnectionOptions) {
        self.stream = stream
        self.decoder = FrameDecoder(maximumFrameSize: options.maximumFrameSize, framing: options.framing)
    }
}
