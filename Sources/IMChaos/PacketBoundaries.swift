import MQTT

/// Follows where MQTT packets start in one direction of a byte stream, from its fixed headers
/// alone, so that a cut can land inside a packet.
///
/// Bytes that are not MQTT (a fixed header whose remaining length runs past four bytes) lose
/// the framing for good: from then on every chunk is taken to start a packet.
struct PacketBoundaries {
    /// The first packet starting in a chunk.
    struct Packet: Equatable {
        /// Its offset in the chunk.
        var offset: Int
        /// Its first byte: the type in the high nibble.
        var firstByte: UInt8
        /// Its whole length, when the chunk holds its fixed header.
        var length: Int?

        /// `PUBLISH`, or the first byte in hex when it names no packet type.
        var typeName: String {
            PacketType(rawValue: firstByte >> 4)?.description ?? "0x" + String(firstByte, radix: 16)
        }
    }

    /// Bytes of the current packet still to come after its fixed header.
    private var remaining = 0
    /// The current packet's fixed header while it is incomplete.
    private var header: [UInt8] = []
    private(set) var isLost = false

    /// Whether the next byte starts a packet.
    var atBoundary: Bool { isLost || (remaining == 0 && header.isEmpty) }

    /// Moves past `bytes`.
    mutating func advance(over bytes: ArraySlice<UInt8>) {
        _ = consume(bytes, stoppingAtBoundary: false)
    }

    /// The first packet that starts in `bytes`, or nil when they all belong to the current one.
    func firstPacket(in bytes: ArraySlice<UInt8>) -> Packet? {
        var probe = self
        let start = probe.consume(bytes, stoppingAtBoundary: true)
        guard start < bytes.endIndex else { return nil }
        let length = bytes[start...].withUnsafeBytes { try? PacketFrame.length(of: $0, maximumPacketSize: .max) }
        return Packet(offset: start - bytes.startIndex, firstByte: bytes[start], length: probe.isLost ? nil : length)
    }

    /// Consumes bytes up to the end, or up to the next packet start; returns where it stopped.
    private mutating func consume(_ bytes: ArraySlice<UInt8>, stoppingAtBoundary: Bool) -> Int {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if stoppingAtBoundary && atBoundary { return index }
            if isLost { return bytes.endIndex }
            if remaining > 0 {
                let skipped = min(remaining, bytes.endIndex - index)
                index += skipped
                remaining -= skipped
                continue
            }
            header.append(bytes[index])
            index += 1
            do {
                let total = try header.withUnsafeBytes { try PacketFrame.length(of: $0, maximumPacketSize: .max) }
                if let total {
                    remaining = total - header.count
                    header.removeAll(keepingCapacity: true)
                }
            } catch {
                isLost = true
                header = []
            }
        }
        return index
    }
}
