import IMHTTP
import MQTT

/// MQTT over WebSocket (RFC 6455) as a `ByteStream`, over a TCP socket or a TLS stream.
///
/// The MQTT framing above reads and writes a byte stream as it does over TCP: reads hand over
/// the payloads of binary frames (a packet may span frames, a frame may hold several), writes
/// go out as binary frames, masked by a client. Pings are answered, a close frame is echoed
/// and ends the stream with `closedByPeer`; a frame the peer may not send is answered with a
/// close frame naming the code, and the read throws `.webSocket(.refused)`. Frames this stream
/// makes itself (pong, close, the server's 101) wait in `pending` when the socket is full and
/// leave with `flushPending`, which the connection calls on every writable event.
///
/// Only the latest ping is answered (RFC 6455 5.5.3): a ping arriving while the pong of an
/// earlier one still waits replaces it, so a flood of pings holds one pong here, not one per
/// ping. The pongs folded that way still count in `pendingOutputCount`, which the connection
/// charges against its output limit, until a turn folds none: a peer that pings faster than
/// it is answered, turn after turn, is cut like a slow reader, and a burst now and then is not.
///
/// A server stream answers the upgrade inside its first reads; a client stream is upgraded
/// by the connect attempt (`advanceUpgrade`) before the connection is handed over.
final class WebSocketStream: ByteStream {
    enum Phase {
        /// Server: reading the upgrade request. Client: waiting for the 101.
        case upgrading
        case open
        /// A close frame (or refusal) went out or came in: input is discarded, writes too.
        case closed
    }

    let inner: any ByteStream
    let isServer: Bool
    let settings: WebSocketSettings
    var phase = Phase.upgrading
    /// Server side, while upgrading.
    var requestParser: HTTPRequestParser?
    /// Server side: a byte other than CR or LF has arrived (the request line has begun).
    var requestStarted = false
    /// Client side, while upgrading, with the key it sent.
    var responseParser: HTTPResponseParser?
    let key: String
    /// Bytes read and not yet cut into frames.
    var inbound: [UInt8] = []
    /// Payload bytes decoded and not yet handed over.
    var data: [UInt8] = []
    var dataStart = 0
    /// Bytes this stream wrote itself and the socket did not take yet.
    var pending: [UInt8] = []
    var pendingStart = 0
    /// The payload of the latest ping not answered yet; its pong is written after `pending`.
    var unansweredPing: [UInt8]?
    /// The bytes of the pongs folded into a later one, counted as if they had been queued.
    var foldedPongBytes = 0
    /// Whether a ping was folded since `pending` was last written out whole.
    var foldedSinceFlush = false
    /// The payload bytes of the fragmented message under way; nil between messages.
    var messageSize: Int?
    /// Thrown by the next read, once the data decoded before it is handed over.
    var failure: TransportError?
    var closeSent = false

    var fileDescriptor: Int32 { inner.fileDescriptor }
    var readWaitsForWritable: Bool { inner.readWaitsForWritable }
    var hasPendingOutput: Bool { pendingStart < pending.count || unansweredPing != nil }
    var pendingOutputCount: Int {
        let pong = unansweredPing.map { WebSocketFrame.encodedSize(payload: $0.count, masked: !isServer) } ?? 0
        return pending.count - pendingStart + pong + foldedPongBytes
    }

    /// A server stream: it reads the upgrade request first.
    init(serving inner: any ByteStream, settings: WebSocketSettings) {
        self.inner = inner
        self.isServer = true
        self.settings = settings
        self.key = ""
        self.requestParser = HTTPRequestParser()
    }

    /// A client stream: the upgrade request for `host:port` is queued at once.
    init(connectingOver inner: any ByteStream, host: String, port: UInt16, settings: WebSocketSettings) {
        self.inner = inner
        self.isServer = false
        self.settings = settings
        self.key = WebSocketHandshake.newKey()
        self.responseParser = HTTPResponseParser()
        queue(WebSocketHandshake.request(host: host, port: port, path: settings.path, key: key).serialized())
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(TransportError) -> IOResult {
        if let delivered = takeData(into: buffer) { return delivered }
        if let failure {
            self.failure = nil
            throw failure
        }
        if phase == .closed { return try inner.read(into: buffer) }
        // One read of the socket a call, as a plain socket does: the connection's read budget
        // then bounds a turn by reads whatever the frames hold, so a peer sending only control
        // frames (a ping flood) takes no longer turns than one sending data.
        switch try inner.read(into: buffer) {
        case .wouldBlock:
            return .wouldBlock
        case .endOfStream:
            return .endOfStream
        case let .processed(count):
            inbound.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
            process()
            if let delivered = takeData(into: buffer) { return delivered }
            if failure != nil { return try read(into: buffer) }
            // Only control frames, or part of a frame: nothing to hand over yet.
            return .processed(0)
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(TransportError) -> IOResult {
        switch phase {
        case .upgrading: return .wouldBlock
        // After a close frame nothing more may be sent: the bytes are dropped.
        case .closed: return .processed(bytes.count)
        case .open: break
        }
        guard try flushPending() else { return .wouldBlock }
        let count = min(bytes.count, WebSocketSettings.maxOutgoingFrame)
        var writer = ByteWriter(capacity: count + 14)
        let maskingKey = isServer ? nil : Self.newMaskingKey()
        WebSocketFrame.encodeHeader(fin: true, opcode: .binary, length: count, maskingKey: maskingKey, into: &writer)
        let headerLength = writer.count
        writer.writeBytes(UnsafeRawBufferPointer(rebasing: bytes[..<count]))
        pending = writer.bytes
        pendingStart = 0
        if let maskingKey { WebSocketFrame.mask(&pending, with: maskingKey, from: headerLength) }
        _ = try flushPending()
        return .processed(count)
    }

    func flushPending() throws(TransportError) -> Bool {
        repeat {
            while pendingStart < pending.count {
                let result = try pending.withUnsafeBytes { bytes in
                    Result { () throws(TransportError) in try inner.write(UnsafeRawBufferPointer(rebasing: bytes[pendingStart...])) }
                }.get()
                guard case let .processed(count) = result, count > 0 else { return false }
                pendingStart += count
            }
            pending = []
            pendingStart = 0
        } while queueUnansweredPong()
        if !foldedSinceFlush { foldedPongBytes = 0 }
        foldedSinceFlush = false
        return true
    }

    func shutdownOutput() {
        if phase == .open { sendClose(.normal, reason: "") }
        phase = .closed
        _ = try? flushPending()
        inner.shutdownOutput()
    }

    func close(abortively: Bool) {
        if !abortively { _ = try? flushPending() }
        inner.close(abortively: abortively)
    }

    /// Hands over decoded payload bytes, if any.
    private func takeData(into buffer: UnsafeMutableRawBufferPointer) -> IOResult? {
        guard dataStart < data.count else { return nil }
        let count = min(buffer.count, data.count - dataStart)
        data.withUnsafeBytes { bytes in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[dataStart..<dataStart + count]))
        }
        dataStart += count
        if dataStart == data.count {
            data = []
            dataStart = 0
        }
        return .processed(count)
    }

    /// Appends bytes to write after those pending.
    func queue(_ bytes: [UInt8]) {
        if pendingStart == pending.count {
            pending = bytes
            pendingStart = 0
        } else {
            pending += bytes
        }
    }

    static func newMaskingKey() -> [UInt8] {
        withUnsafeBytes(of: UInt32.random(in: 0...UInt32.max)) { Array($0) }
    }
}
