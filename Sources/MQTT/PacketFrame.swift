/// Locates packet boundaries in a byte stream by reading only the fixed header.
///
/// Transports use this to cut a stream into whole packets before any decoding,
/// so a peer cannot make us buffer more than `maximumPacketSize` bytes for one packet.
public enum PacketFrame {
    /// The most bytes a fixed header can take: one type byte and a 4-byte remaining length.
    public static let maximumHeaderLength = 5

    /// The total length, fixed header included, of the packet that starts at `bytes`.
    ///
    /// - Returns: `nil` when `bytes` is too short to tell.
    /// - Throws: `FrameError` when the remaining length runs past 4 bytes or the
    ///   packet is larger than `maximumPacketSize`.
    public static func length(of bytes: UnsafeRawBufferPointer, maximumPacketSize: Int) throws -> Int? {
        guard !bytes.isEmpty else { return nil }
        var remaining = 0
        var shift = 0
        var index = 1
        while true {
            guard index < bytes.count else { return nil }
            let byte = bytes[index]
            remaining |= Int(byte & 0x7F) << shift
            index += 1
            if byte & 0x80 == 0 { break }
            shift += 7
            guard index < maximumHeaderLength else { throw FrameError.variableIntegerTooLong }
        }
        let total = index + remaining
        guard total <= maximumPacketSize else {
            throw FrameError.packetTooLarge(size: total, maximum: maximumPacketSize)
        }
        return total
    }
}

/// Why a byte stream cannot be cut into MQTT packets.
public enum FrameError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The remaining length field has a fifth continuation byte (malformed, 0x81).
    case variableIntegerTooLong
    /// The packet is larger than the receiver accepts (0x95).
    case packetTooLarge(size: Int, maximum: Int)

    public var description: String {
        switch self {
        case .variableIntegerTooLong:
            return "malformed packet: remaining length longer than 4 bytes"
        case let .packetTooLarge(size, maximum):
            return "packet of \(size) bytes exceeds the maximum packet size of \(maximum) bytes"
        }
    }
}
