@testable import MQTT
import Testing

struct ByteCodingTests {
    func vbi(_ value: UInt32) -> [UInt8] {
        var writer = ByteWriter()
        writer.writeVariableByteInteger(value)
        return writer.bytes
    }

    @Test func variableByteIntegersUseTheStandardsBoundaries() throws {
        // The boundary values of MQTT 5 table 1-1.
        let cases: [(UInt32, [UInt8])] = [
            (0, [0x00]), (127, [0x7F]), (128, [0x80, 0x01]), (16_383, [0xFF, 0x7F]),
            (16_384, [0x80, 0x80, 0x01]), (2_097_151, [0xFF, 0xFF, 0x7F]),
            (2_097_152, [0x80, 0x80, 0x80, 0x01]), (268_435_455, [0xFF, 0xFF, 0xFF, 0x7F]),
        ]
        for (value, bytes) in cases {
            #expect(vbi(value) == bytes)
            var reader = ByteReader(bytes)
            #expect(try reader.readVariableByteInteger() == value)
            #expect(reader.isAtEnd)
        }
    }

    @Test func variableByteIntegerIsCappedAtFourBytes() {
        var reader = ByteReader([0x80, 0x80, 0x80, 0x80, 0x01])
        #expect(throws: MQTTError.self) { try reader.readVariableByteInteger() }
        do {
            _ = try reader.readVariableByteInteger()
        } catch {
            #expect(error.kind == .malformedPacket)
            #expect(error.message.contains("longer than 4 bytes"))
        }
        #expect(reader.offset == 0)
    }

    @Test func variableByteIntegerMustUseTheFewestBytes() {
        var reader = ByteReader([0x80, 0x00])
        #expect(throws: MQTTError(.malformedPacket, "variable byte integer at offset 0 uses more bytes than its value needs")) {
            try reader.readVariableByteInteger()
        }
    }

    @Test func readingPastTheEndIsTruncationAndLeavesThePosition() throws {
        var reader = ByteReader([0x00, 0x05, 0x61, 0x62])
        do {
            _ = try reader.readString()
            Issue.record("read a string longer than the buffer")
        } catch {
            #expect(error.kind == .truncated)
            #expect(error.reasonCode == .malformedPacket)
        }
        #expect(reader.offset == 0)
        #expect(try reader.readUInt16() == 5)
        #expect(throws: MQTTError.self) { try reader.readUInt32() }
        #expect(try reader.readUInt8() == 0x61)
        var incomplete = ByteReader([0x80, 0x80])
        #expect(throws: MQTTError.self) { try incomplete.readVariableByteInteger() }
    }

    @Test func integersAreBigEndian() throws {
        var writer = ByteWriter()
        writer.writeUInt16(0x1234)
        writer.writeUInt32(0xDEAD_BEEF)
        #expect(writer.bytes == [0x12, 0x34, 0xDE, 0xAD, 0xBE, 0xEF])
        var reader = ByteReader(writer.bytes)
        #expect(try reader.readUInt16() == 0x1234)
        #expect(try reader.readUInt32() == 0xDEAD_BEEF)
    }

    @Test func stringsRoundTripIncludingNonCharacters() throws {
        for text in ["", "im/inbox/#", "ü€😀", "\u{FFFF}", "\u{FEFF}bom", "\u{1}\u{7F}\u{9F}"] {
            var writer = ByteWriter()
            writer.writeString(text)
            var reader = ByteReader(writer.bytes)
            #expect(try reader.readString() == text)
            #expect(reader.isAtEnd)
        }
    }

    @Test(arguments: [
        ([0xFF], "not well-formed"),
        ([0xC0, 0x80], "not well-formed"),  // overlong U+0000
        ([0xE0, 0x80, 0xAF], "not well-formed"),  // overlong "/"
        ([0xF4, 0x90, 0x80, 0x80], "not well-formed"),  // above U+10FFFF
        ([0x61, 0xE2, 0x82], "not well-formed"),  // cut short
        ([0x80], "not well-formed"),  // lone continuation byte
        ([0x61, 0x00, 0x62], "U+0000"),
        ([0xED, 0xA0, 0x80], "surrogate U+D800"),
        ([0xED, 0xBF, 0xBF], "surrogate U+DFFF"),
    ] as [([UInt8], String)])
    func stringsBreakingTheMQTTRulesAreMalformed(bytes: [UInt8], problem: String) {
        var reader = ByteReader([0, UInt8(bytes.count)] + bytes)
        do {
            let text = try reader.readString()
            Issue.record("accepted \(text.unicodeScalars.map(\.value))")
        } catch {
            #expect(error.reasonCode == .malformedPacket)
            #expect(error.message.contains(problem), "\(error.message)")
        }
    }

    @Test func binaryDataAndStringPairs() throws {
        var writer = ByteWriter()
        writer.writeBinary([0, 0xFF])
        writer.writeStringPair(name: "im-msg-uid", value: "42")
        #expect(writer.bytes == [0, 2, 0, 0xFF] + string("im-msg-uid") + string("42"))
        var reader = ByteReader(writer.bytes)
        #expect(try reader.readBinary() == [0, 0xFF])
        let pair = try reader.readStringPair()
        #expect(pair.name == "im-msg-uid" && pair.value == "42")
    }

    @Test func lengthPrefixGrowsPastOneByte() {
        for size in [0, 127, 128, 16_383, 16_384] {
            var writer = ByteWriter()
            writer.writeUInt8(0xAA)
            writer.writeWithLengthPrefix { $0.writeBytes(repeatElement(7, count: size)) }
            #expect(Array(writer.bytes[1..<writer.count - size]) == vbi(UInt32(size)))
            #expect(writer.bytes.first == 0xAA && writer.count == 1 + vbi(UInt32(size)).count + size)
        }
    }

    @Test func checkingWriterReportsValuesThatDoNotFit() {
        var writer = ByteWriter(capacity: 0, checking: true)
        writer.writeString(String(repeating: "x", count: 70_000))
        writer.writeVariableByteInteger(300_000_000)
        #expect(writer.overflow == "string of 70000 bytes exceeds 65,535")
        #expect(writer.count == 2 + 65_535 + 4)
    }
}
