/// What one non-blocking read or write did.
public enum IOResult: Equatable, Sendable {
    /// This many bytes moved (more than zero).
    case processed(Int)
    /// Nothing can move now; the loop calls again on the next readiness event.
    case wouldBlock
    /// The peer will send no more bytes (reads only).
    case endOfStream
}

/// A non-blocking byte stream under the framing layer: a TCP socket, TLS over one, WebSocket over either.
///
/// A connection reads and writes only through this protocol, so a TLS layer can sit between
/// the socket and the MQTT framing without either noticing. Implementations belong to one
/// event loop and never block: when they cannot make progress they answer `.wouldBlock`, and
/// the connection tries again on the next readiness event of `fileDescriptor`. It retries
/// both directions on any event, since TLS may need to read before it can write.
public protocol ByteStream: AnyObject {
    /// The descriptor whose readiness drives the stream.
    var fileDescriptor: Int32 { get }
    /// Reads up to `buffer.count` bytes into `buffer`.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(TransportError) -> IOResult
    /// Writes a prefix of `bytes`.
    func write(_ bytes: UnsafeRawBufferPointer) throws(TransportError) -> IOResult
    /// Says "no more data" to the peer (TCP FIN; TLS close_notify first).
    func shutdownOutput()
    /// Releases the descriptor; `abortively` resets the connection instead of closing it in order.
    func close(abortively: Bool)
    /// Whether the last read stopped until the socket is writable (TLS), so that a writable
    /// event must retry reading too.
    var readWaitsForWritable: Bool { get }
    /// Whether a read that returns less than asked for took everything the socket held (a
    /// plain socket); a TLS or WebSocket stream returns a record or a frame at a time.
    var shortReadDrainsSocket: Bool { get }
    /// Whether the stream holds bytes it made itself (a WebSocket pong or close frame) that
    /// the socket did not take yet: the connection then calls `flushPending` when writable.
    var hasPendingOutput: Bool { get }
    /// The bytes the stream owes the peer beyond those the connection queued (a WebSocket
    /// stream's pending frames and the pongs it folded into one): charged against the
    /// connection's output limit, so a peer that makes the stream answer and never reads is
    /// cut like any slow reader.
    var pendingOutputCount: Int { get }
    /// Writes those bytes; false while some remain.
    func flushPending() throws(TransportError) -> Bool
    /// Whether the stream can carry bytes yet: false while an accepted TLS stream has not
    /// finished its handshake, when nothing queued can be written (so a close need not wait).
    var isEstablished: Bool { get }
}

extension ByteStream {
    public var readWaitsForWritable: Bool { false }
    public var shortReadDrainsSocket: Bool { false }
    public var hasPendingOutput: Bool { false }
    public var pendingOutputCount: Int { 0 }
    public func flushPending() throws(TransportError) -> Bool { true }
    public var isEstablished: Bool { true }
}
