import MQTT
import Testing

/// Packets written out byte by byte from the field layouts of MQTT 5 chapter 3.
struct EncodingTests {
    func expectBytes(_ packet: Packet, _ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(packet.encoded() == bytes, sourceLocation: sourceLocation)
        #expect(try Packet(frame: bytes) == packet, sourceLocation: sourceLocation)
    }

    @Test func connectWithCredentialsKeepAliveSessionExpiryAndUserProperty() throws {
        let connect = Connect(
            clientIdentifier: "dev-1", cleanStart: false, keepAlive: 30, userName: "app", password: Array("tok".utf8),
            properties: [.sessionExpiryInterval(604_800), .userProperty("im-platform", "pc")])
        let bytes: [UInt8] = [
            0x10, 51,  // CONNECT, remaining length 51
            0x00, 0x04, 0x4D, 0x51, 0x54, 0x54,  // protocol name "MQTT"
            0x05,  // protocol level 5
            0xC0,  // connect flags: user name, password; clean start 0, no will
            0x00, 0x1E,  // keep alive 30 s
            23,  // property length
            0x11, 0x00, 0x09, 0x3A, 0x80,  // session expiry interval 604800 s (7 days)
            0x26, 0x00, 0x0B] + Array("im-platform".utf8) + [0x00, 0x02, 0x70, 0x63]  // user property im-platform=pc
            + [0x00, 0x05] + Array("dev-1".utf8)  // client identifier
            + [0x00, 0x03] + Array("app".utf8)  // user name
            + [0x00, 0x03] + Array("tok".utf8)  // password
        try expectBytes(.connect(connect), bytes)
    }

    @Test func connectWithWill() throws {
        let connect = Connect(
            clientIdentifier: "c", keepAlive: 0,
            will: Will(topic: "w", payload: [0xAB], qos: .exactlyOnce, retain: true, properties: [.willDelayInterval(10)]))
        let bytes: [UInt8] = [
            0x10, 26,
            0x00, 0x04, 0x4D, 0x51, 0x54, 0x54, 0x05,
            0x36,  // will retain 0x20, will QoS 2 (0x10), will flag 0x04, clean start 0x02
            0x00, 0x00,  // keep alive off
            0x00,  // no properties
            0x00, 0x01, 0x63,  // client identifier "c"
            5, 0x18, 0x00, 0x00, 0x00, 0x0A,  // will properties: will delay interval 10 s
            0x00, 0x01, 0x77,  // will topic "w"
            0x00, 0x01, 0xAB,  // will payload
        ]
        try expectBytes(.connect(connect), bytes)
    }

    @Test func publishQoS1WithProperties() throws {
        let publish = Publish(
            topic: "im/send/u2", payload: Array(#"{"t":1}"#.utf8), qos: .atLeastOnce, packetIdentifier: 7,
            properties: [.payloadFormatIndicator(.utf8), .contentType("application/json"), .userProperty("im-msg-uid", "m1")])
        let bytes: [UInt8] = [
            0x32, 60,  // PUBLISH, QoS 1 (flags 0b0010), remaining length 60
            0x00, 0x0A] + Array("im/send/u2".utf8) + [  // topic name
            0x00, 0x07,  // packet identifier 7
            38,  // property length
            0x01, 0x01,  // payload format indicator: UTF-8
            0x03, 0x00, 0x10] + Array("application/json".utf8) + [  // content type
            0x26, 0x00, 0x0A] + Array("im-msg-uid".utf8) + [0x00, 0x02, 0x6D, 0x31]  // user property im-msg-uid=m1
            + Array(#"{"t":1}"#.utf8)  // payload, to the end of the packet
        try expectBytes(.publish(publish), bytes)
        #expect(publish.properties.payloadFormatIndicator == .utf8)
        #expect(publish.properties.contentType == "application/json")
        #expect(publish.properties.userProperty("im-msg-uid") == "m1")
    }

    @Test func publishFlagsCarryDupQoSAndRetain() throws {
        let publish = Publish(topic: "t", payload: [], qos: .exactlyOnce, packetIdentifier: 1, retain: true, dup: true)
        try expectBytes(.publish(publish), [0x3D, 6, 0x00, 0x01, 0x74, 0x00, 0x01, 0x00])
        try expectBytes(.publish(Publish(topic: "t", payload: [0x01])), [0x30, 5, 0x00, 0x01, 0x74, 0x00, 0x01])
    }

    @Test func subscribeWithOptions() throws {
        let subscribe = Subscribe(packetIdentifier: 1, subscriptions: [
            .init("im/inbox/#", options: .init(qos: .atLeastOnce, noLocal: true, retainAsPublished: true, retainHandling: .doNotSend)),
            .init("a/+", options: .init(qos: .atMostOnce)),
        ], properties: [.subscriptionIdentifier(300)])
        let bytes: [UInt8] = [
            0x82, 25,  // SUBSCRIBE (flags 0b0010)
            0x00, 0x01,  // packet identifier
            3, 0x0B, 0xAC, 0x02,  // subscription identifier 300 as a variable byte integer
            0x00, 0x0A] + Array("im/inbox/#".utf8) + [
            0x2D,  // retain handling 2 (0x20), retain as published 0x08, no local 0x04, QoS 1
            0x00, 0x03, 0x61, 0x2F, 0x2B, 0x00,  // "a/+", QoS 0
        ]
        try expectBytes(.subscribe(subscribe), bytes)
    }

    @Test func connackWithProperties() throws {
        let connack = ConnAck(sessionPresent: true, properties: [
            .receiveMaximum(20), .maximumQoS(.atLeastOnce), .userProperty("im-user-id", "u1"),
        ])
        let bytes: [UInt8] = [
            0x20, 25,
            0x01,  // session present
            0x00,  // success
            22,
            0x21, 0x00, 0x14,  // receive maximum 20
            0x24, 0x01,  // maximum QoS 1
            0x26, 0x00, 0x0A] + Array("im-user-id".utf8) + [0x00, 0x02, 0x75, 0x31]
        try expectBytes(.connack(connack), bytes)
        #expect(connack.properties.maximumQoS == .atLeastOnce)
        #expect(connack.properties.userProperty("im-user-id") == "u1")
    }

    @Test func disconnectShortForms() throws {
        try expectBytes(.disconnect(Disconnect()), [0xE0, 0x00])
        try expectBytes(.disconnect(Disconnect(reasonCode: .sessionTakenOver)), [0xE0, 0x01, 0x8E])
        try expectBytes(
            .disconnect(Disconnect(reasonCode: .useAnotherServer, properties: [.serverReference("b:1883")])),
            [0xE0, 11, 0x9C, 9, 0x1C, 0x00, 0x06] + Array("b:1883".utf8))
        // The long form of a normal disconnection decodes to the same packet.
        #expect(try Packet(frame: [0xE0, 0x02, 0x00, 0x00]) == .disconnect(Disconnect()))
    }

    @Test func pingAndAuthShortForms() throws {
        try expectBytes(.pingreq, [0xC0, 0x00])
        try expectBytes(.pingresp, [0xD0, 0x00])
        try expectBytes(.auth(Auth()), [0xF0, 0x00])
        try expectBytes(.auth(Auth(reasonCode: .reAuthenticate)), [0xF0, 0x02, 0x19, 0x00])
    }

    @Test func publishAcknowledgementShortForms() throws {
        try expectBytes(.puback(PubAck(packetIdentifier: 7)), [0x40, 0x02, 0x00, 0x07])
        try expectBytes(.pubrec(PubRec(packetIdentifier: 7, reasonCode: .noMatchingSubscribers)), [0x50, 0x03, 0x00, 0x07, 0x10])
        try expectBytes(.pubrel(PubRel(packetIdentifier: 7)), [0x62, 0x02, 0x00, 0x07])
        try expectBytes(
            .pubcomp(PubComp(packetIdentifier: 7, properties: [.reasonString("x")])),
            [0x70, 0x08, 0x00, 0x07, 0x00, 4, 0x1F, 0x00, 0x01, 0x78])
        #expect(try Packet(frame: [0x40, 0x04, 0x00, 0x07, 0x87, 0x00]) == .puback(PubAck(packetIdentifier: 7, reasonCode: .notAuthorized)))
    }

    @Test func subscriptionAcknowledgements() throws {
        try expectBytes(.suback(SubAck(packetIdentifier: 3, reasonCodes: [.grantedQoS1, .notAuthorized])), [0x90, 5, 0x00, 0x03, 0x00, 0x01, 0x87])
        try expectBytes(.unsubscribe(Unsubscribe(packetIdentifier: 4, topicFilters: ["a"])), [0xA2, 6, 0x00, 0x04, 0x00, 0x00, 0x01, 0x61])
        try expectBytes(.unsuback(UnsubAck(packetIdentifier: 4, reasonCodes: [.noSubscriptionExisted])), [0xB0, 4, 0x00, 0x04, 0x00, 0x11])
    }

    @Test func remainingLengthOverOneByte() throws {
        let publish = Publish(topic: "t", payload: Array(repeating: 0x55, count: 200))
        let bytes = publish.encoded()
        #expect(Array(bytes.prefix(3)) == [0x30, 0xCC, 0x01])  // 204 = 0x4C + 1 * 128
        #expect(bytes.count == 207)
        #expect(try Packet(frame: bytes) == .publish(publish))
    }
}
