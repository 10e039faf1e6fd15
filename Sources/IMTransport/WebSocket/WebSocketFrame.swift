import MQTT

/// One WebSocket frame (RFC 6455 section 5.2): what the peer sent or what we send.
///
/// `decode` returns nil while the frame has not fully arrived (the reader is left where it
/// was); it throws, with the close code to answer, for frames no peer may send: reserved
/// bits or opcodes, fragmented or oversized control frames, payloads over the limit (refused
/// from the header, before any payload is buffered). Masking is kept as found: which end
/// must mask is the stream's rule, not the codec's.
public struct WebSocketFrame: Hashable, Sendable {
    public var fin: Bool
    public var opcode: WebSocketOpcode
    /// The masking key the frame was (or is to be) sent with; nil for an unmasked frame.
    public var maskingKey: [UInt8]?
    /// The payload, unmasked.
    public var payload: [UInt8]

    public init(fin: Bool = true, opcode: WebSocketOpcode, maskingKey: [UInt8]? = nil, payload: [UInt8] = []) {
        precondition(maskingKey?.count ?? 4 == 4, "a masking key has 4 bytes")
        self.fin = fin
        self.opcode = opcode
        self.maskingKey = maskingKey
        self.payload = payload
    }

    /// The longest payload a control frame may carry.
    public static let maxControlPayload = 125

    /// The next frame in `reader`, or nil when more bytes are needed.
    public static func decode(from reader: inout ByteReader, limits: WebSocketLimits) throws(WebSocketError) -> WebSocketFrame? {
        var probe = reader
        guard probe.remainingCount >= 2, let first = try? probe.readUInt8(), let second = try? probe.readUInt8() else { return nil }
        guard first & 0x70 == 0 else { throw WebSocketError(.protocolError, "reserved bits set without an extension") }
        let opcode = WebSocketOpcode(rawValue: first & 0x0F)
        guard opcode.isDefined else { throw WebSocketError(.protocolError, "\(opcode)") }
        let fin = first & 0x80 != 0
        var length = UInt64(second & 0x7F)
        if opcode.isControl {
            guard fin else { throw WebSocketError(.protocolError, "a fragmented \(opcode) frame") }
            guard length <= UInt64(maxControlPayload) else {
                throw WebSocketError(.protocolError, "a \(opcode) frame over \(maxControlPayload) bytes")
            }
        }
        if length == 126 {
            guard let extended = try? probe.readUInt16() else { return nil }
            length = UInt64(extended)
        } else if length == 127 {
            guard let high = try? probe.readUInt32(), let low = try? probe.readUInt32() else { return nil }
            guard high & 0x8000_0000 == 0 else { throw WebSocketError(.protocolError, "a payload length with its top bit set") }
            length = UInt64(high) << 32 | UInt64(low)
        }
        guard length <= UInt64(limits.maxFrameSize) else {
            throw WebSocketError(.messageTooBig, "a frame of \(length) bytes, over the limit of \(limits.maxFrameSize)")
        }
        var key: [UInt8]?
        if second & 0x80 != 0 {
            guard let bytes = try? probe.readBytes(4) else { return nil }
            key = bytes
        }
        guard let body = try? probe.readSlice(Int(length)) else { return nil }
        reader = probe
        var payload = Array(body)
        if let key { Self.mask(&payload, with: key) }
        return WebSocketFrame(fin: fin, opcode: opcode, maskingKey: key, payload: payload)
    }

    /// Appends the frame, its payload masked with `maskingKey` when there is one.
    public func encode(into writer: inout ByteWriter) {
        Self.encodeHeader(fin: fin, opcode: opcode, length: payload.count, maskingKey: maskingKey, into: &writer)
        guard let maskingKey else { return writer.writeBytes(payload) }
        var masked = payload
        Self.mask(&masked, with: maskingKey)
        writer.writeBytes(masked)
    }

    /// The header of a frame carrying `length` bytes, for callers that write the payload themselves.
    static func encodeHeader(fin: Bool, opcode: WebSocketOpcode, length: Int, maskingKey: [UInt8]?, into writer: inout ByteWriter) {
        writer.writeUInt8((fin ? 0x80 : 0) | opcode.rawValue)
        let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
        if length < 126 {
            writer.writeUInt8(maskBit | UInt8(length))
        } else if length <= Int(UInt16.max) {
            writer.writeUInt8(maskBit | 126)
            writer.writeUInt16(UInt16(length))
        } else {
            writer.writeUInt8(maskBit | 127)
            writer.writeUInt32(UInt32(UInt64(length) >> 32))
            writer.writeUInt32(UInt32(truncatingIfNeeded: length))
        }
        if let maskingKey { writer.writeBytes(maskingKey) }
    }

    /// The bytes a frame of `payload` bytes takes on the wire, header included.
    static func encodedSize(payload: Int, masked: Bool) -> Int {
        let length = payload < 126 ? 1 : payload <= Int(UInt16.max) ? 3 : 9
        return 1 + length + (masked ? 4 : 0) + payload
    }

    /// XORs `bytes` with the key, as masking and unmasking both do.
    static func mask(_ bytes: inout [UInt8], with key: [UInt8], from offset: Int = 0) {
        let (k0, k1, k2, k3) = (key[0], key[1], key[2], key[3])
        bytes.withUnsafeMutableBufferPointer { buffer in
            var index = offset
            while index < buffer.count {
                switch (index - offset) & 3 {
                case 0: buffer[index] ^= k0
                case 1: buffer[index] ^= k1
                case 2: buffer[index] ^= k2
                default: buffer[index] ^= k3
                }
                index += 1
            }
        }
    }

    /// A close frame's payload: the code, then the reason in UTF-8 (cut to fit 125 bytes).
    public static func closePayload(_ code: WebSocketCloseCode, reason: String) -> [UInt8] {
        var bytes = [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)]
        var text = Array(reason.utf8.prefix(maxControlPayload - 2))
        // Never cut inside a UTF-8 sequence: drop continuation bytes and the lead byte they follow.
        if text.count == maxControlPayload - 2, reason.utf8.count > text.count {
            while let last = text.last, last & 0xC0 == 0x80 { text.removeLast() }
            if let last = text.last, last >= 0xC0 { text.removeLast() }
        }
        bytes += text
        return bytes
    }

    /// The code and reason of a close frame's payload; an empty payload reads as 1005.
    public static func parseClose(_ payload: [UInt8]) throws(WebSocketError) -> (WebSocketCloseCode, String) {
        guard !payload.isEmpty else { return (.noStatus, "") }
        guard payload.count >= 2 else { throw WebSocketError(.protocolError, "a close frame with a 1-byte payload") }
        let code = WebSocketCloseCode(rawValue: UInt16(payload[0]) << 8 | UInt16(payload[1]))
        guard code.isSendable else { throw WebSocketError(.protocolError, "a close frame with code \(code.rawValue)") }
        guard let reason = String(validating: payload[2...], as: UTF8.self) else {
            throw WebSocketError(.invalidPayload, "a close reason that is not UTF-8")
        }
        return (code, reason)
    }
}
