import MQTT

/// Cuts a byte stream into whole MQTT packets, keeping only unfinished bytes between reads.
///
/// Reads land in a buffer the whole event loop shares; frames are copied out of it as soon as
/// they are complete, so an idle connection holds no buffer at all and a busy one holds at
/// most one partial packet (or, after reading was paused mid-read, the bytes not yet handed over).
///
/// With `.raw` framing every non-empty chunk is one frame and nothing is ever kept.
struct FrameDecoder {
    let maximumFrameSize: Int
    let framing: ConnectionFraming
    private var pending: [UInt8] = []
    private var start = 0

    init(maximumFrameSize: Int, framing: ConnectionFraming = .mqtt) {
        self.maximumFrameSize = maximumFrameSize
        self.framing = framing
    }

    /// Whether bytes wait for a later `feed`.
    var hasPendingBytes: Bool { start < pending.count }

    /// Feeds newly read bytes (possibly none) and hands each whole frame to `emit`, in order.
    ///
    /// When `emit` returns false (reading paused, connection closing), the bytes not yet handed
    /// over are kept, and a later `feed` hands them over first.
    mutating func feed(_ chunk: UnsafeRawBufferPointer, emit: ([UInt8]) -> Bool) throws(FrameError) {
        if framing == .raw {
            // The whole chunk goes over at once, so a pause leaves nothing behind.
            if !chunk.isEmpty { _ = emit(Array(chunk)) }
            return
        }
        var rest = chunk
        while hasPendingBytes {
            let available = pending.count - start
            let length = try pending.withUnsafeBytes { bytes in
                Result { () throws(FrameError) in try frameLength(UnsafeRawBufferPointer(rebasing: bytes[start...])) }
            }.get()
            if let length, available >= length {
                let frame = Array(pending[start..<start + length])
                start += length
                if start == pending.count { release() }
                guard emit(frame) else { return keep(rest) }
                continue
            }
            guard !rest.isEmpty else { return }
            compact()
            // Without a length, a few more bytes may complete the header; with one, take what the frame lacks.
            let wanted = length.map { $0 - available } ?? (PacketFrame.maximumHeaderLength - available)
            let taken = min(wanted, rest.count)
            pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: rest[..<taken]))
            rest = UnsafeRawBufferPointer(rebasing: rest[taken...])
        }
        while !rest.isEmpty {
            guard let length = try frameLength(rest), length <= rest.count else { return keep(rest) }
            let frame = Array(UnsafeRawBufferPointer(rebasing: rest[..<length]))
            rest = UnsafeRawBufferPointer(rebasing: rest[length...])
            guard emit(frame) else { return keep(rest) }
        }
    }

    /// Drops everything buffered (the connection closed).
    mutating func reset() {
        release()
    }

    private func frameLength(_ bytes: UnsafeRawBufferPointer) throws(FrameError) -> Int? {
        do {
            return try PacketFrame.length(of: bytes, maximumPacketSize: maximumFrameSize)
        } catch let error as FrameError {
            throw error
        } catch {
            preconditionFailure("PacketFrame.length threw \(error), which is not a FrameError")
        }
    }

    private mutating func keep(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        compact()
        pending.append(contentsOf: bytes)
    }

    private mutating func compact() {
        guard start > 0 else { return }
        pending.removeFirst(start)
        start = 0
    }

    /// Frees the buffer entirely: between packets an idle connection should cost no memory.
    private mutating func release() {
        pending = []
        start = 0
    }
}
