import MQTT
import Testing

/// Each class of bad input, refused with the reason code the standard gives it.
struct MalformationTests {
    let connectHeader: [UInt8] = string("MQTT") + [0x05]

    @Test func reservedFixedHeaderFlags() {
        for packet in samplePackets where packet.type != .publish {
            var bytes = packet.encoded()
            for flags: UInt8 in [0b0000, 0b0001, 0b0010, 0b0100, 0b1000, 0b1111] where flags != packet.type.requiredFlags {
                bytes[0] = packet.type.rawValue << 4 | flags
                expectRefused(bytes, .malformedPacket, "\(packet.type) flags \(flags)")
            }
        }
        expectRefused([0x00, 0x00], .malformedPacket, "packet type 0")
    }

    @Test func publishQoS3AndDupWithQoS0() {
        expectRefused(frame(0x36, string("t") + [0, 1, 0]), .malformedPacket, "QoS 3")
        expectRefused(frame(0x38, string("t") + [0]), .malformedPacket, "DUP with QoS 0")
    }

    @Test func overlongVariableByteIntegers() {
        expectRefused([0x30, 0x80, 0x80, 0x80, 0x80, 0x01], .malformedPacket, "5-byte remaining length")
        expectRefused([0xC0, 0x80, 0x00], .malformedPacket, "non-minimal remaining length")
        // Property length 0x80 0x80 0x80 0x80 0x01 inside a DISCONNECT.
        expectRefused(frame(0xE0, [0x00, 0x80, 0x80, 0x80, 0x80, 0x01]), .malformedPacket, "5-byte property length")
        // Subscription identifier with a fifth byte.
        expectRefused(frame(0x82, [0, 1, 6, 0x0B, 0xFF, 0xFF, 0xFF, 0xFF, 0x01] + string("a") + [0]), .malformedPacket)
    }

    @Test func unknownPropertyIdentifier() {
        expectRefused(frame(0xE0, [0x00, 2, 0x7F, 0x00]), .malformedPacket)
        expectRefused(frame(0xE0, [0x00, 3, 0x81, 0x01, 0x00]), .malformedPacket, "identifier 129")
    }

    @Test func invalidStrings() {
        let bad: [[UInt8]] = [[0xFF], [0x00], [0xED, 0xA0, 0x80], [0xC0, 0xAF]]
        for bytes in bad {
            let field = [0, UInt8(bytes.count)] + bytes
            expectRefused(frame(0x30, field + [0]), .malformedPacket, "topic \(bytes)")
            expectRefused(frame(0xE0, [0x80, UInt8(1 + 2 + bytes.count), 0x1F] + field), .malformedPacket, "reason string \(bytes)")
            expectRefused(frame(0x82, [0, 1, 0] + field + [0]), .malformedPacket, "topic filter \(bytes)")
            expectRefused(frame(0x10, connectHeader + [0x02, 0, 0, 0] + field), .malformedPacket, "client identifier \(bytes)")
        }
        #expect(throws: Never.self) { try Packet(frame: frame(0x30, [0, 3, 0xEF, 0xBF, 0xBF, 0])) }  // U+FFFF is allowed
    }

    @Test func lengthsRunningPastTheEnd() {
        expectRefused(frame(0x30, [0x00, 0x50, 0x61]), .malformedPacket, "topic length")
        expectRefused(frame(0xE0, [0x00, 0x05, 0x1F, 0x00]), .malformedPacket, "property length")
        expectRefused(frame(0xE0, [0x00, 0x04, 0x1F, 0x00, 0x09, 0x61]), .malformedPacket, "reason string length")
        expectRefused(frame(0x10, connectHeader + [0xC2, 0, 0, 0] + string("c") + string("u") + [0, 9]), .malformedPacket, "password")
        expectRefused(frame(0x40, [0x00]), .malformedPacket, "half a packet identifier")
        expectRefused([0x30, 0x0A, 0x00, 0x01], .malformedPacket, "frame shorter than its remaining length")
        expectRefused([0xC0, 0x00, 0xC0], .malformedPacket, "bytes after the packet")
        expectRefused(frame(0xC0, [0x00]), .malformedPacket, "PINGREQ with a body")
    }

    @Test func packetOverTheMaximumSize() throws {
        var decoder = PacketDecoder(maximumPacketSize: 100)
        decoder.append([0x30, 0xC8, 0x01])  // 200 bytes announced; none of them sent
        do {
            _ = try decoder.next()
            Issue.record("accepted a packet over the maximum")
        } catch {
            #expect(error.reasonCode == .packetTooLarge)
            #expect(error.kind == .packetTooLarge)
        }
        let publish = Packet.publish(Publish(topic: "t", payload: Array(repeating: 0, count: 200)))
        #expect(throws: MQTTError(.packetTooLarge, "packet of 207 bytes exceeds the maximum packet size of 100 bytes", packetType: .publish)) {
            try publish.validate(maximumPacketSize: 100)
        }
    }

    @Test func zeroPacketIdentifiers() {
        expectRefused(frame(0x32, string("t") + [0, 0, 0]), .protocolError, "PUBLISH")
        for first: UInt8 in [0x40, 0x50, 0x62, 0x70] {
            expectRefused(frame(first, [0, 0]), .protocolError, "\(first)")
        }
        expectRefused(frame(0x82, [0, 0, 0] + string("a") + [0]), .protocolError, "SUBSCRIBE")
        expectRefused(frame(0x90, [0, 0, 0, 0]), .protocolError, "SUBACK")
        expectRefused(frame(0xA2, [0, 0, 0] + string("a")), .protocolError, "UNSUBSCRIBE")
        expectRefused(frame(0xB0, [0, 0, 0, 0]), .protocolError, "UNSUBACK")
    }

    @Test func badSubscriptionOptions() {
        func subscribe(_ filter: String, _ options: UInt8) -> [UInt8] { frame(0x82, [0, 1, 0] + string(filter) + [options]) }
        expectRefused(subscribe("a", 0x40), .malformedPacket, "reserved bit 6")
        expectRefused(subscribe("a", 0x80), .malformedPacket, "reserved bit 7")
        expectRefused(subscribe("a", 0x03), .protocolError, "QoS 3")
        expectRefused(subscribe("a", 0x30), .protocolError, "retain handling 3")
        expectRefused(subscribe("$share/g/a", 0x04), .protocolError, "no local on a shared subscription")
        expectRefused(frame(0x82, [0, 1, 0]), .protocolError, "no topic filters")
        expectRefused(frame(0xA2, [0, 1, 0]), .protocolError, "UNSUBSCRIBE without topic filters")
        #expect(throws: Never.self) { try Packet(frame: subscribe("a", 0x2E)) }
    }

    @Test func connectChecks() {
        expectRefused(frame(0x10, string("MQIsdp") + [0x03, 0x02, 0, 0, 0] + string("c")), .unsupportedProtocolVersion)
        expectRefused(frame(0x10, string("MQTT") + [0x04, 0x02, 0, 0] + string("c")), .unsupportedProtocolVersion, "MQTT 3.1.1")
        expectRefused(frame(0x10, connectHeader + [0x03, 0, 0, 0] + string("c")), .malformedPacket, "reserved flag")
        expectRefused(frame(0x10, connectHeader + [0x0A, 0, 0, 0] + string("c")), .malformedPacket, "will QoS without will")
        expectRefused(frame(0x10, connectHeader + [0x22, 0, 0, 0] + string("c")), .malformedPacket, "will retain without will")
        let will = [0] + string("w") + [0, 0]
        expectRefused(frame(0x10, connectHeader + [0x1E, 0, 0, 0] + string("c") + will), .malformedPacket, "will QoS 3")
        expectRefused(frame(0x10, connectHeader + [0x06, 0, 0, 0] + string("c") + [0] + string("w/#") + [0, 0]), .protocolError, "will topic wildcard")
        expectRefused(frame(0x10, connectHeader + [0x02, 0, 0, 0]), .malformedPacket, "no client identifier")
    }

    @Test func connackChecks() {
        expectRefused(frame(0x20, [0x02, 0x00, 0x00]), .malformedPacket, "reserved acknowledge flag")
        expectRefused(frame(0x20, [0x01, 0x87, 0x00]), .protocolError, "session present with a failure")
    }

    @Test func propertyValuesTheStandardForbids() {
        expectRefused(frame(0x20, [0, 0, 3, 0x21, 0, 0]), .protocolError, "receive maximum 0")
        expectRefused(frame(0x20, [0, 0, 5, 0x27, 0, 0, 0, 0]), .protocolError, "maximum packet size 0")
        expectRefused(frame(0x20, [0, 0, 2, 0x24, 2]), .protocolError, "maximum QoS 2")
        expectRefused(frame(0x30, string("t") + [2, 0x01, 2]), .protocolError, "payload format indicator 2")
        expectRefused(frame(0x30, string("t") + [3, 0x23, 0, 0]), .protocolError, "topic alias 0")
        expectRefused(frame(0x82, [0, 1, 2, 0x0B, 0] + string("a") + [0]), .protocolError, "subscription identifier 0")
    }

    @Test func topicNames() {
        expectRefused(frame(0x30, string("") + [0]), .protocolError, "empty topic without alias")
        expectRefused(frame(0x30, string("a/+") + [0]), .protocolError, "wildcard +")
        expectRefused(frame(0x30, string("#") + [0]), .protocolError, "wildcard #")
    }

    @Test func subscriptionAcknowledgementWithoutCodes() {
        expectRefused(frame(0x90, [0, 1, 0]), .protocolError)
    }

    @Test func errorsSayWhereAndWhat() {
        do {
            _ = try Packet(frame: frame(0x20, [0, 0, 3, 0x23, 0, 1]))
            Issue.record("accepted a topic alias in CONNACK")
        } catch {
            #expect(error.packetType == .connack)
            #expect(error.description == "malformed packet in CONNACK (0x81): Topic Alias is not allowed in CONNACK")
        }
    }
}
