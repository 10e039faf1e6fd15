import MQTT
import Testing

struct PacketDecoderTests {
    let stream: [UInt8] = samplePackets.flatMap { $0.encoded() }

    func decodeAll(_ chunks: [ArraySlice<UInt8>], maximumPacketSize: Int = 1 << 20) throws -> [Packet] {
        var decoder = PacketDecoder(maximumPacketSize: maximumPacketSize)
        var packets: [Packet] = []
        for chunk in chunks {
            decoder.append(chunk)
            while let packet = try decoder.next() { packets.append(packet) }
        }
        #expect(decoder.bufferedByteCount == 0)
        return packets
    }

    @Test func wholeStreamAtOnce() throws {
        #expect(try decodeAll([stream[...]]) == samplePackets)
    }

    @Test func byteByByte() throws {
        #expect(try decodeAll(stream.indices.map { stream[$0...$0] }) == samplePackets)
    }

    @Test func everySplitIntoTwo() throws {
        for split in 0...stream.count {
            #expect(try decodeAll([stream[..<split], stream[split...]]) == samplePackets, "split at \(split)")
        }
    }

    @Test func randomChunks() throws {
        var random = SplitMix64(seed: 0xC0DEC)
        for _ in 0..<300 {
            var chunks: [ArraySlice<UInt8>] = []
            var start = 0
            while start < stream.count {
                let end = min(stream.count, start + Int.random(in: 0...40, using: &random))
                chunks.append(stream[start..<end])
                start = end
            }
            #expect(try decodeAll(chunks) == samplePackets)
        }
    }

    @Test func needsMoreBytesIsNotAnError() throws {
        var decoder = PacketDecoder()
        let bytes = samplePackets[0].encoded()
        decoder.append(bytes.dropLast())
        #expect(try decoder.next() == nil)
        #expect(decoder.bufferedByteCount == bytes.count - 1)
        decoder.append(bytes.suffix(1))
        #expect(try decoder.next() == samplePackets[0])
        #expect(try decoder.next() == nil)
    }

    @Test func rawBufferAppend() throws {
        var decoder = PacketDecoder()
        ([0xC0, 0x00, 0xD0, 0x00] as [UInt8]).withUnsafeBytes { decoder.append($0) }
        #expect(try decoder.next() == .pingreq)
        #expect(try decoder.next() == .pingresp)
    }

    @Test func maximumPacketSizeCountsTheFixedHeader() throws {
        let bytes = PubAck(packetIdentifier: 1).encoded()  // 4 bytes
        #expect(try decodeAll([bytes[...]], maximumPacketSize: 4) == [.puback(PubAck(packetIdentifier: 1))])
        #expect(throws: MQTTError(.packetTooLarge, "packet of 4 bytes exceeds the maximum packet size of 3 bytes")) {
            try decodeAll([bytes[...]], maximumPacketSize: 3)
        }
    }

    @Test func aHugeLengthFieldAllocatesNothing() throws {
        var decoder = PacketDecoder()
        decoder.append([0x30, 0xFF, 0xFF, 0xFF, 0x7F, 0x00])  // announces 256 MB
        #expect(try decoder.next() == nil)
        #expect(decoder.bufferedByteCount == 6)
    }

    @Test func malformedPacketInTheMiddleOfAStream() {
        var decoder = PacketDecoder()
        decoder.append([0xC0, 0x00, 0x62, 0x02, 0x00, 0x00, 0xC0, 0x00])
        #expect(throws: Never.self) { try decoder.next() }
        do {
            _ = try decoder.next()
            Issue.record("accepted PUBREL with packet identifier 0")
        } catch {
            #expect(error.reasonCode == .protocolError)
            #expect(error.packetType == .pubrel)
        }
    }
}
