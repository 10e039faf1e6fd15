/// Appends big-endian integers and MQTT data types to a byte array.
///
/// Values the wire format cannot hold (a string over 65,535 bytes, a variable
/// byte integer over 268,435,455) are programming errors and stop the program;
/// check user-supplied packets with `Packet.validate()` first.
public struct ByteWriter: Sendable {
    /// Everything written so far.
    public private(set) var bytes: [UInt8]
    /// In checking mode, the first value that did not fit; it was cut to fit instead of stopping the program.
    private(set) var overflow: String?
    private let isChecking: Bool

    /// An empty writer with room for `capacity` bytes.
    public init(capacity: Int = 0) {
        self.init(capacity: capacity, checking: false)
    }

    init(capacity: Int, checking: Bool) {
        bytes = []
        bytes.reserveCapacity(capacity)
        isChecking = checking
    }

    private mutating func reportOverflow(_ message: String) {
        precondition(isChecking, message)
        if overflow == nil { overflow = message }
    }

    /// How many bytes have been written.
    public var count: Int { bytes.count }

    public mutating func reserveCapacity(_ capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// Empties the writer but keeps its storage, to reuse one buffer for many packets.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Writes a Byte.
    public mutating func writeUInt8(_ value: UInt8) {
        bytes.append(value)
    }

    /// Writes a Two Byte Integer (big-endian).
    public mutating func writeUInt16(_ value: UInt16) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    /// Writes a Four Byte Integer (big-endian).
    public mutating func writeUInt32(_ value: UInt32) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    /// Writes raw bytes with no length, as a PUBLISH payload is.
    public mutating func writeBytes(_ value: some Sequence<UInt8>) {
        bytes.append(contentsOf: value)
    }

    /// Writes a Variable Byte Integer in the fewest bytes.
    public mutating func writeVariableByteInteger(_ value: UInt32) {
        var rest = value
        if value > ByteReader.maximumVariableByteInteger {
            reportOverflow("variable byte integer \(value) exceeds 268,435,455")
            rest = ByteReader.maximumVariableByteInteger
        }
        repeat {
            var byte = UInt8(rest & 0x7F)
            rest >>= 7
            if rest > 0 { byte |= 0x80 }
            bytes.append(byte)
        } while rest > 0
    }

    /// Writes a UTF-8 Encoded String with its 2-byte length.
    public mutating func writeString(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in writeLengthPrefixed(utf8, what: "string") }
    }

    /// Writes Binary Data with its 2-byte length.
    public mutating func writeBinary(_ value: [UInt8]) {
        value.withUnsafeBufferPointer { writeLengthPrefixed($0, what: "binary data") }
    }

    private mutating func writeLengthPrefixed(_ data: UnsafeBufferPointer<UInt8>, what: String) {
        var data = data
        if data.count > Int(UInt16.max) {
            reportOverflow("\(what) of \(data.count) bytes exceeds 65,535")
            data = UnsafeBufferPointer(rebasing: data.prefix(Int(UInt16.max)))
        }
        writeUInt16(UInt16(data.count))
        bytes.append(contentsOf: data)
    }

    /// Writes a UTF-8 String Pair.
    public mutating func writeStringPair(name: String, value: String) {
        writeString(name)
        writeString(value)
    }

    /// Writes what `body` writes, preceded by its length as a Variable Byte Integer.
    ///
    /// One length byte is reserved up front; longer lengths shift the body, which
    /// is cheaper than computing every packet's size twice.
    public mutating func writeWithLengthPrefix(_ body: (inout ByteWriter) -> Void) {
        let lengthIndex = bytes.count
        bytes.append(0)
        body(&self)
        let length = bytes.count - lengthIndex - 1
        if length < 0x80 {
            bytes[lengthIndex] = UInt8(length)
            return
        }
        var prefix = ByteWriter(capacity: 4, checking: true)
        prefix.writeVariableByteInteger(UInt32(clamping: length))
        if let problem = prefix.overflow { reportOverflow("length \(length): \(problem)") }
        bytes.replaceSubrange(lengthIndex...lengthIndex, with: prefix.bytes)
    }
}
