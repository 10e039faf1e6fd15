/// Reads big-endian integers and byte runs from a buffer, tracking the position.
///
/// Reading past the end throws an `MQTTError` of kind `.truncated` and leaves the
/// position unchanged; nothing here allocates more than the bytes actually present.
public struct ByteReader: Sendable {
    @usableFromInline var storage: ArraySlice<UInt8>
    @usableFromInline var index: Int

    /// A reader over all of `bytes`.
    public init(_ bytes: [UInt8]) {
        self.init(bytes[...])
    }

    /// A reader over `bytes`; no copy is made.
    public init(_ bytes: ArraySlice<UInt8>) {
        storage = bytes
        index = bytes.startIndex
    }

    /// How many bytes have been read.
    public var offset: Int { index - storage.startIndex }
    /// How many bytes are left.
    public var remainingCount: Int { storage.endIndex - index }
    /// Whether every byte has been read.
    public var isAtEnd: Bool { index == storage.endIndex }

    /// The next byte, without consuming it.
    public func peekUInt8() -> UInt8? {
        isAtEnd ? nil : storage[index]
    }

    @inlinable
    func require(_ count: Int) throws(MQTTError) {
        guard count <= storage.endIndex - index else {
            throw MQTTError(.truncated, "needs \(count) bytes at offset \(offset) but only \(remainingCount) remain")
        }
    }

    /// Reads a Byte.
    @inlinable
    public mutating func readUInt8() throws(MQTTError) -> UInt8 {
        try require(1)
        defer { index += 1 }
        return storage[index]
    }

    /// Reads a Two Byte Integer (big-endian).
    @inlinable
    public mutating func readUInt16() throws(MQTTError) -> UInt16 {
        try require(2)
        defer { index += 2 }
        return UInt16(storage[index]) << 8 | UInt16(storage[index + 1])
    }

    /// Reads a Four Byte Integer (big-endian).
    @inlinable
    public mutating func readUInt32() throws(MQTTError) -> UInt32 {
        try require(4)
        defer { index += 4 }
        return UInt32(storage[index]) << 24 | UInt32(storage[index + 1]) << 16
            | UInt32(storage[index + 2]) << 8 | UInt32(storage[index + 3])
    }

    /// The next `count` bytes as a new array.
    public mutating func readBytes(_ count: Int) throws(MQTTError) -> [UInt8] {
        Array(try readSlice(count))
    }

    /// The next `count` bytes, sharing this reader's storage.
    public mutating func readSlice(_ count: Int) throws(MQTTError) -> ArraySlice<UInt8> {
        try require(count)
        defer { index += count }
        return storage[index..<index + count]
    }

    /// A reader over the next `count` bytes, which this reader skips.
    public mutating func readSubreader(_ count: Int) throws(MQTTError) -> ByteReader {
        ByteReader(try readSlice(count))
    }

    /// Everything left, as a new array.
    public mutating func readRemainingBytes() -> [UInt8] {
        defer { index = storage.endIndex }
        return Array(storage[index...])
    }
}
