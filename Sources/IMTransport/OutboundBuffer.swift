/// Bytes waiting to be written, in order, in one contiguous buffer.
///
/// Frames are copied in as they are sent and written out with as few `send` calls as the
/// socket allows. The storage is freed once drained, so idle connections cost nothing.
struct OutboundBuffer {
    private var storage: [UInt8] = []
    private var start = 0

    /// Bytes queued and not yet written.
    var count: Int { storage.count - start }
    var isEmpty: Bool { start == storage.count }

    mutating func append(_ bytes: [UInt8]) {
        if isEmpty {
            storage = bytes
            start = 0
        } else {
            // Drop written bytes before growing, once they make up half the buffer.
            if start > 0 && start >= storage.count / 2 {
                storage.removeFirst(start)
                start = 0
            }
            storage.append(contentsOf: bytes)
        }
    }

    /// Calls `body` with the unwritten bytes; `body` returns how many it wrote.
    mutating func write(_ body: (UnsafeRawBufferPointer) throws(TransportError) -> Int) throws(TransportError) -> Int {
        let written = try storage.withUnsafeBytes { bytes in
            Result { () throws(TransportError) in try body(UnsafeRawBufferPointer(rebasing: bytes[start...])) }
        }.get()
        start += written
        if isEmpty { removeAll() }
        return written
    }

    mutating func removeAll() {
        storage = []
        start = 0
    }
}
