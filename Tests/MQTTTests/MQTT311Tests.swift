import MQTT
import Testing

/// MQTT 3.1.1 bytes as written in the 3.1.1 standard's examples, read into the MQTT 5 model and
/// written back in 3.1.1 form.
struct MQTT311Tests {
    /// CONNECT, level 4, clean session, will (QoS 1, topic "w", payload "x"), user "u", password "p".
    static let connect: [UInt8] = [
        0x10, 26, 0, 4, 0x4D, 0x51, 0x54, 0x54, 4, 0xCE, 0, 30,
        0, 2, 0x69, 0x64, 0, 1, 0x77, 0, 1, 0x78, 0, 1, 0x75, 0, 1, 0x70,
    ]

    @Test func aConnectWithAWillDecodesIntoTheModel() throws {
        #expect(MQTT311.isConnect(Self.connect))
        guard case .connect(let connect) = try MQTT311.decode(frame: Self.connect) else {
            Issue.record("not a CONNECT")
            return
        }
        #expect(connect.clientIdentifier == "id" && connect.keepAlive == 30 && connect.cleanStart)
        #expect(connect.will == Will(topic: "w", payload: [0x78], qos: .atLeastOnce))
        #expect(connect.userName == "u" && connect.password == [0x70])
        #expect(!MQTT311.isConnect(Packet.connect(connect).encoded()))
    }

    /// An MQTT 3.1 CONNECT ("MQIsdp", level 3) is refused, and its client reads 3.x CONNACKs only.
    @Test func anMQTT31ConnectIsRecognisedAndNotDecoded() {
        let connect: [UInt8] = [0x10, 16, 0, 6, 0x4D, 0x51, 0x49, 0x73, 0x64, 0x70, 3, 0x02, 0, 30, 0, 2, 0x69, 0x64]
        #expect(MQTT311.isPre5Connect(connect) && MQTT311.isPre5Connect(Self.connect))
        #expect(!MQTT311.isConnect(connect))
        #expect(throws: MQTTError.self) { try MQTT311.decode(frame: connect) }
        #expect(MQTT311.encode(.connack(ConnAck(reasonCode: .unsupportedProtocolVersion))) == [0x20, 2, 0, 1])
    }

    @Test func publishAndSubscribeDecodeWithoutProperties() throws {
        let publish: [UInt8] = [0x32, 7, 0, 1, 0x74, 0, 9, 0x68, 0x69]
        #expect(try MQTT311.decode(frame: publish)
                == .publish(Publish(topic: "t", payload: [0x68, 0x69], qos: .atLeastOnce, packetIdentifier: 9)))
        let subscribe: [UInt8] = [0x82, 6, 0, 5, 0, 1, 0x74, 1]
        guard case .subscribe(let decoded) = try MQTT311.decode(frame: subscribe) else {
            Issue.record("not a SUBSCRIBE")
            return
        }
        #expect(decoded.packetIdentifier == 5 && decoded.subscriptions.first?.topicFilter == "t")
        #expect(throws: MQTTError.self) { try MQTT311.decode(frame: [0x32, 3, 0, 9, 0x74]) }
    }

    @Test func serverPacketsAreWrittenWithout5OnlyParts() {
        let refusal = ConnAck(reasonCode: .badUserNameOrPassword, properties: [.reasonString("no")])
        #expect(MQTT311.encode(.connack(refusal)) == [0x20, 2, 0, 4])
        #expect(MQTT311.encode(.suback(SubAck(packetIdentifier: 5, reasonCodes: [.grantedQoS1, .notAuthorized]))) == [0x90, 4, 0, 5, 1, 0x80])
        #expect(MQTT311.encode(.puback(PubAck(packetIdentifier: 9, reasonCode: .notAuthorized))) == [0x40, 2, 0, 9])
        let delivery = Publish(topic: "t", payload: [0x68], qos: .atMostOnce, properties: [.contentType("text/plain")])
        #expect(MQTT311.encode(.publish(delivery)) == [0x30, 4, 0, 1, 0x74, 0x68])
        #expect(MQTT311.encode(.disconnect(Disconnect(reasonCode: .sessionTakenOver))) == nil)
    }
}
