import IMTransport
import MQTT
import Testing

/// The RFC 6455 frame codec: the RFC's own examples, need-more-bytes at every cut, and the
/// frames no peer may send, each with the close code that answers it.
struct WebSocketFrameTests {
    let limits = WebSocketLimits(maxFrameSize: 1000, maxMessageSize: 1000)

    func decode(_ bytes: [UInt8]) throws(WebSocketError) -> WebSocketFrame? {
        var reader = ByteReader(bytes)
        return try WebSocketFrame.decode(from: &reader, limits: limits)
    }

    func refusal(_ bytes: [UInt8]) -> WebSocketError? {
        do {
            _ = try decode(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func decodesTheRFCsMaskedAndUnmaskedHello() throws {
        let unmasked = try #require(try decode([0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]))
        #expect(unmasked == WebSocketFrame(opcode: .text, payload: Array("Hello".utf8)))
        let masked = try #require(try decode([0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]))
        #expect(masked.payload == Array("Hello".utf8) && masked.maskingKey == [0x37, 0xFA, 0x21, 0x3D])
        let fragment = try #require(try decode([0x01, 0x03, 0x48, 0x65, 0x6C]))
        #expect(!fragment.fin && fragment.opcode == .text)
    }

    @Test(arguments: [0, 125, 126, 65_535, 65_536, 70_000])
    func roundTripsEveryLengthFormMaskedAndNot(length: Int) throws {
        let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        for key in [nil, [UInt8]([1, 2, 3, 4])] {
            let frame = WebSocketFrame(opcode: .binary, maskingKey: key, payload: payload)
            var writer = ByteWriter()
            frame.encode(into: &writer)
            let headerLength = (length < 126 ? 2 : length < 65_536 ? 4 : 10) + (key == nil ? 0 : 4)
            #expect(writer.bytes.count == headerLength + length)
            var reader = ByteReader(writer.bytes)
            let decoded = try WebSocketFrame.decode(from: &reader, limits: WebSocketLimits(maxFrameSize: 1 << 20))
            #expect(decoded == frame && reader.isAtEnd)
        }
    }

    @Test func needsMoreBytesAtEveryCutAndLeavesTheReaderWhereItWas() throws {
        var writer = ByteWriter()
        WebSocketFrame(opcode: .binary, maskingKey: [9, 8, 7, 6], payload: Array(repeating: 0x41, count: 300)).encode(into: &writer)
        WebSocketFrame(opcode: .ping, payload: [1]).encode(into: &writer)
        let bytes = writer.bytes
        for cut in 0..<(bytes.count - 3) where cut != 308 {
            var reader = ByteReader(Array(bytes[..<cut]))
            let first = try WebSocketFrame.decode(from: &reader, limits: limits)
            #expect((first == nil) == (cut < 308), "cut at \(cut)")
            #expect(reader.offset == (cut < 308 ? 0 : 308))
        }
        var reader = ByteReader(bytes)
        #expect(try WebSocketFrame.decode(from: &reader, limits: limits)?.payload.count == 300)
        #expect(try WebSocketFrame.decode(from: &reader, limits: limits)?.opcode == .ping)
        #expect(reader.isAtEnd)
    }

    @Test func refusesWhatNoPeerMaySendWithTheRightCode() {
        #expect(refusal([0x83, 0x00])?.code == .protocolError, "reserved opcode 3")
        #expect(refusal([0x8B, 0x00])?.code == .protocolError, "reserved control opcode 11")
        #expect(refusal([0xC2, 0x00])?.code == .protocolError, "RSV1 without an extension")
        #expect(refusal([0x09, 0x00])?.code == .protocolError, "a fragmented ping")
        #expect(refusal([0x89, 0x7E, 0x00, 0x7E])?.code == .protocolError, "a ping over 125 bytes")
        #expect(refusal([0x82, 0x7E, 0x03, 0xE9])?.code == .messageTooBig, "1,001 bytes over a 1,000-byte limit, from the header")
        #expect(refusal([0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 0])?.code == .protocolError, "a 64-bit length with its top bit set")
    }

    @Test func closePayloadsCarryCodeAndReason() throws {
        let payload = WebSocketFrame.closePayload(.messageTooBig, reason: "too big")
        #expect(payload == [0x03, 0xF1] + Array("too big".utf8))
        let (code, reason) = try WebSocketFrame.parseClose(payload)
        #expect(code == .messageTooBig && reason == "too big")
        #expect(try WebSocketFrame.parseClose([]).0 == .noStatus)
        #expect(throws: WebSocketError.self) { try WebSocketFrame.parseClose([0x03, 0xED]) }  // 1005 may not be sent
        #expect(throws: WebSocketError.self) { try WebSocketFrame.parseClose([0x03, 0xE8, 0xC3]) }  // not UTF-8
        let long = WebSocketFrame.closePayload(.normal, reason: String(repeating: "é", count: 100))
        #expect(long.count <= 125 && String(validating: long[2...], as: UTF8.self) != nil, "cut on a character boundary")
    }
}
