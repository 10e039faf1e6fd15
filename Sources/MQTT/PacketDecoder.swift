/// Decodes packets from a byte stream that arrives in arbitrary pieces.
///
/// Append bytes as they arrive, then call `next()` until it returns nil. Packets are cut
/// by their fixed header first (`PacketFrame`), so a packet larger than
/// `maximumPacketSize` is refused before its bytes arrive, and no length field ever
/// decides an allocation. After an error the stream cannot be resynchronised:
/// answer with the error's `reasonCode` and close the connection.
///
/// A value type: confine each decoder to the one task or thread that reads its connection.
public struct PacketDecoder: Sendable {
    /// The largest packet MQTT can express: a 5-byte fixed header and 268,435,455 bytes.
    public static let largestPacketSize = 1 + 4 + Int(ByteReader.maximumVariableByteInteger)

    /// The largest packet accepted, fixed header included.
    public var maximumPacketSize: Int
    private var buffer: [UInt8] = []
    private var start = 0

    public init(maximumPacketSize: Int = PacketDecoder.largestPacketSize) {
        self.maximumPacketSize = maximumPacketSize
    }

    /// Bytes received but not yet decoded.
    public var bufferedByteCount: Int { buffer.count - start }

    /// Adds bytes received from the connection.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// Adds bytes received from the connection, straight from a read buffer.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// The next whole packet, or nil when more bytes are needed.
    public mutating func next() throws(MQTTError) -> Packet? {
        guard let length = try frameLength() else { return nil }
        let frame = buffer[start..<start + length]
        start += length
        return try Packet(frame: frame)
    }

    /// The length of the whole packet at the front of the buffer, nil until all of it is there.
    private func frameLength() throws(MQTTError) -> Int? {
        let length: Int?
        do {
            length = try buffer.withUnsafeBytes { raw in
                try PacketFrame.length(of: UnsafeRawBufferPointer(rebasing: raw[start...]), maximumPacketSize: maximumPacketSize)
            }
        } catch let error as FrameError {
            throw MQTTError(error)
        } catch {
            throw MQTTError(.malformedPacket, "\(error)")
        }
        guard let length, length <= bufferedByteCount else { return nil }
        return length
    }

    /// Drops decoded bytes once they are at least half the buffer, so the
    /// cost of moving the rest stays proportional to what was decoded.
    private mutating func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 0 && start >= buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
    }
}
