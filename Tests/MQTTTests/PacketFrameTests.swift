import MQTT
import Testing

struct PacketFrameTests {
    func length(_ bytes: [UInt8], max: Int = 1 << 20) throws -> Int? {
        try bytes.withUnsafeBytes { try PacketFrame.length(of: $0, maximumPacketSize: max) }
    }

    @Test func needsMoreBytesUntilTheLengthIsKnown() throws {
        #expect(try length([]) == nil)
        #expect(try length([0x30]) == nil)
        #expect(try length([0x30, 0x80]) == nil)
    }

    @Test func totalIncludesTheFixedHeader() throws {
        #expect(try length([0xC0, 0x00]) == 2)
        #expect(try length([0x30, 0x7F]) == 129)
        #expect(try length([0x30, 0x80, 0x01]) == 131)
        #expect(try length([0x30, 0xFF, 0xFF, 0xFF, 0x7F], max: .max) == 5 + 268_435_455)
    }

    @Test func fifthLengthByteIsMalformed() {
        #expect(throws: FrameError.variableIntegerTooLong) {
            try length([0x30, 0x80, 0x80, 0x80, 0x80, 0x01])
        }
    }

    @Test func packetOverTheMaximumIsRefusedBeforeItsBytesArrive() {
        #expect(throws: FrameError.packetTooLarge(size: 131, maximum: 100)) {
            try length([0x30, 0x80, 0x01], max: 100)
        }
    }
}
