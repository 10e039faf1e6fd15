import MQTT

/// Receives a connection's events, on the connection's event loop thread.
///
/// The server implements this directly for speed; `Connection.frames()` wraps one for async
/// callers. Callbacks must not block. The connection holds its handler until it closes.
public protocol ConnectionHandler: AnyObject {
    /// A whole frame arrived: one MQTT packet (fixed header included), or with raw framing
    /// the next chunk of bytes as read.
    func connection(_ connection: Connection, didReceive frame: [UInt8])
    /// The outgoing buffer drained to its low-water mark after `send` answered `.full`.
    func connectionDidBecomeWritable(_ connection: Connection)
    /// The connection closed: `error` is nil after a local `close`, else why it ended.
    func connection(_ connection: Connection, didCloseWith error: TransportError?)
    /// The peer's bytes cannot be cut into packets (too large, bad length): the handler may
    /// `send` a last packet (an MQTT DISCONNECT 0x95) and close gracefully; if it leaves the
    /// connection open, it is reset and `didCloseWith` gets the framing error.
    func connection(_ connection: Connection, didRefuseFraming error: FrameError)
}

extension ConnectionHandler {
    public func connectionDidBecomeWritable(_ connection: Connection) {}
    public func connection(_ connection: Connection, didRefuseFraming error: FrameError) {}
}

/// Whether a frame queue still takes frames without crossing its high-water mark.
public enum Writability: Sendable {
    /// Below the high-water mark: keep sending.
    case writable
    /// At or above it: stop until `connectionDidBecomeWritable`; the frame was queued.
    case full
}

/// How to close a connection.
public enum CloseMode: Sendable {
    /// Write out what is queued, tell the peer (FIN), wait briefly for it to close, then close.
    /// A TLS connection still in its handshake, which can write nothing, closes at once.
    case graceful
    /// Drop what is queued and reset the connection (RST) now.
    case abortive
    /// Write what the socket takes now and close at once, without waiting for the peer (so
    /// input it sent and we did not read resets the connection): for a connection refused on
    /// arrival, whose peer must not hold its descriptor.
    case immediate
}
