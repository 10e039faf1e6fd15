import IMTransport

/// One direction of a proxied connection: the bytes read from one side that wait to be written
/// to the other, each chunk with the time it may leave, under an optional byte rate.
///
/// Confined to the proxy's event loop (a field of `ProxyPair`).
final class ProxyPipe {
    /// What may be written now.
    enum Release: Equatable {
        /// These bytes, now.
        case bytes([UInt8])
        /// Nothing before this much time has passed.
        case wait(Duration)
        /// Nothing is queued.
        case empty
    }

    /// A cut on its way: how much more to forward, and of which packet.
    struct PendingCut {
        /// Bytes still to forward before cutting, counted from the next chunk's start.
        var remaining: Int
        /// Bytes of the packet that cross in all.
        var kept: Int
        var packet: PacketBoundaries.Packet
    }

    private struct Chunk {
        var due: ContinuousClock.Instant
        var bytes: [UInt8]
    }

    /// Whether the bytes go from the client toward the server.
    let towardServer: Bool
    private var chunks: [Chunk] = []
    private var head = 0
    /// Bytes queued and not yet released.
    private(set) var queuedBytes = 0
    /// Bytes written to the destination so far.
    var forwardedBytes = 0
    /// Where packets start in what this pipe has forwarded.
    var boundaries = PacketBoundaries()
    /// A cut whose packet has started.
    var cut: PendingCut?
    /// The source closed; the destination closes once the queue has drained.
    var isSourceClosed = false
    /// The destination's write buffer reached its high-water mark.
    var isDestinationFull = false
    /// Reading from the source is paused (a long queue or a full destination).
    var isSourcePaused = false
    /// The timer that pumps again when the head chunk is due or the rate allows more.
    var timer: TimerID?
    private var allowance = 0.0
    private var refilledAt: ContinuousClock.Instant?

    init(towardServer: Bool) { self.towardServer = towardServer }

    /// Queues `bytes` to leave `delay` after `now`, never before those queued earlier.
    func append(_ bytes: [UInt8], delay: Duration, now: ContinuousClock.Instant) {
        var due = now + delay
        if head < chunks.count, let last = chunks.last, last.due > due { due = last.due }
        chunks.append(Chunk(due: due, bytes: bytes))
        queuedBytes += bytes.count
    }

    /// Makes every queued chunk due now (the delay was lifted).
    func expedite(now: ContinuousClock.Instant) {
        for index in head..<chunks.count where chunks[index].due > now { chunks[index].due = now }
    }

    /// Forgets what is queued (its destination is gone).
    func drop() {
        chunks = []
        head = 0
        queuedBytes = 0
    }

    /// Takes the bytes that may be written at `now`, at most `bytesPerSecond` a second.
    ///
    /// A rate lets bytes out in pieces of a twentieth of a second's worth, so that a slow rate
    /// is smooth rather than bursty; the allowance does not build up while the pipe is idle.
    func take(now: ContinuousClock.Instant, bytesPerSecond: Int?) -> Release {
        guard head < chunks.count else {
            refilledAt = nil
            allowance = 0
            return .empty
        }
        let chunk = chunks[head]
        if chunk.due > now { return .wait(chunk.due - now) }
        guard let rate = bytesPerSecond, rate > 0 else { return .bytes(pop(chunk.bytes.count)) }
        let piece = Double(max(1, rate / 20))
        if let refilledAt {
            allowance = min(piece, allowance + Double(rate) * Self.seconds(now - refilledAt))
        }
        refilledAt = now
        let wanted = min(piece, Double(chunk.bytes.count))
        guard allowance >= wanted else { return .wait(.seconds((wanted - allowance) / Double(rate))) }
        let count = min(chunk.bytes.count, Int(allowance))
        allowance -= Double(count)
        return .bytes(pop(count))
    }

    /// Removes `count` bytes from the head chunk.
    private func pop(_ count: Int) -> [UInt8] {
        let bytes = chunks[head].bytes
        queuedBytes -= count
        if count < bytes.count {
            chunks[head].bytes = Array(bytes[count...])
            return Array(bytes[..<count])
        }
        head += 1
        if head == chunks.count {
            chunks.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64 && head * 2 >= chunks.count {
            chunks.removeFirst(head)
            head = 0
        }
        return bytes
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
