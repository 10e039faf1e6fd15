@testable import IMChaos
import Testing

/// Finding where MQTT packets start from their fixed headers alone.
struct PacketBoundariesTests {
    @Test func findsTheFirstPacketStartingInAChunkAndItsLength() {
        let first = TestPackets.publish(length: 40), second = TestPackets.publish(length: 300)
        var boundaries = PacketBoundaries()
        #expect(boundaries.firstPacket(in: first[...]) == .init(offset: 0, firstByte: 0x30, length: 40))
        boundaries.advance(over: first.prefix(10))
        // Inside the first packet: the next start is the second packet's, with a 2-byte length.
        let rest = Array(first.dropFirst(10)) + second
        #expect(boundaries.firstPacket(in: rest[...]) == .init(offset: 30, firstByte: 0x30, length: 300))
        #expect(boundaries.firstPacket(in: rest.prefix(30)) == nil)
        boundaries.advance(over: rest[...])
        #expect(boundaries.atBoundary)
    }

    @Test func aHeaderSplitAcrossChunksIsFollowed() {
        let packet = TestPackets.publish(length: 300)  // 3-byte fixed header
        var boundaries = PacketBoundaries()
        boundaries.advance(over: packet.prefix(2))
        #expect(!boundaries.atBoundary)
        #expect(boundaries.firstPacket(in: packet.dropFirst(2)) == nil)
        boundaries.advance(over: packet.dropFirst(2))
        #expect(boundaries.atBoundary)
        // A packet whose header the chunk does not complete: its start, without a length.
        #expect(boundaries.firstPacket(in: [0x30, 0x80][...]) == .init(offset: 0, firstByte: 0x30, length: nil))
    }

    @Test func packetsWithoutABodyAreBoundariesToo() {
        var boundaries = PacketBoundaries()
        let pings = TestPackets.pingRequest + TestPackets.pingRequest + [0xD0]
        boundaries.advance(over: pings.prefix(1))
        #expect(boundaries.firstPacket(in: pings[1...]) == .init(offset: 1, firstByte: 0xC0, length: 2))
        boundaries.advance(over: pings[1..<4])
        #expect(boundaries.atBoundary)
        #expect(boundaries.firstPacket(in: pings[4...]) == .init(offset: 0, firstByte: 0xD0, length: nil))
        #expect(PacketBoundaries.Packet(offset: 0, firstByte: 0xD0, length: 2).typeName == "PINGRESP")
        #expect(PacketBoundaries.Packet(offset: 0, firstByte: 0x05, length: nil).typeName == "0x5")
    }

    @Test func bytesThatAreNotMQTTLoseTheFraming() {
        var boundaries = PacketBoundaries()
        boundaries.advance(over: [0x30, 0xFF, 0xFF, 0xFF, 0xFF, 0x01][...])
        #expect(boundaries.isLost && boundaries.atBoundary)
        #expect(boundaries.firstPacket(in: [9, 9][...]) == .init(offset: 0, firstByte: 9, length: nil))
    }
}
