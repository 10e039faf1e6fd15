import MQTT
import Testing

struct PropertiesTests {
    @Test func userPropertiesRepeatAndKeepTheirOrder() throws {
        var properties: Properties = [.userProperty("a", "1"), .sessionExpiryInterval(5), .userProperty("b", "2")]
        properties.appendUserProperty("a", "3")
        #expect(properties.userProperties == [UserProperty("a", "1"), UserProperty("b", "2"), UserProperty("a", "3")])
        #expect(properties.userProperty("a") == "1")
        #expect(properties.userPropertyValues("a") == ["1", "3"])
        #expect(properties.userProperty("missing") == nil)
        let decoded = try Packet(frame: Packet.disconnect(Disconnect(properties: properties)).encoded())
        guard case .disconnect(let disconnect) = decoded else { Issue.record("not a DISCONNECT"); return }
        #expect(disconnect.properties.elements == properties.elements)
    }

    @Test func settingASingleUsePropertyReplacesItInPlace() {
        var properties: Properties = [.sessionExpiryInterval(1), .userProperty("k", "v")]
        properties.sessionExpiryInterval = 2
        #expect(properties.elements == [.sessionExpiryInterval(2), .userProperty("k", "v")])
        properties.sessionExpiryInterval = nil
        #expect(properties.elements == [.userProperty("k", "v")])
        properties.receiveMaximum = 10
        #expect(properties.elements.last == .receiveMaximum(10))
        properties.userProperties = [UserProperty("x", "y")]
        #expect(properties.elements == [.receiveMaximum(10), .userProperty("x", "y")])
    }

    @Test func typedAccessorsReadWhatFactoriesWrite() {
        var properties = Properties()
        properties.payloadFormatIndicator = .utf8
        properties.messageExpiryInterval = 60
        properties.contentType = "application/json"
        properties.responseTopic = "r"
        properties.correlationData = [1]
        properties.topicAlias = 4
        properties.willDelayInterval = 9
        properties.subscriptionIdentifiers = [1, 2]
        properties.reasonString = "why"
        properties.sessionExpiryInterval = 3600
        properties.receiveMaximum = 20
        properties.maximumPacketSize = 1 << 20
        properties.topicAliasMaximum = 5
        properties.requestProblemInformation = false
        properties.requestResponseInformation = true
        properties.authenticationMethod = "m"
        properties.authenticationData = [2]
        properties.assignedClientIdentifier = "auto-1"
        properties.serverKeepAlive = 45
        properties.responseInformation = "info"
        properties.serverReference = "other:1883"
        properties.maximumQoS = .atLeastOnce
        properties.retainAvailable = false
        properties.wildcardSubscriptionAvailable = true
        properties.subscriptionIdentifierAvailable = false
        properties.sharedSubscriptionAvailable = true
        properties.userProperties = [UserProperty("im-user-id", "u1")]
        #expect(Set(properties.map(\.identifier)) == Set(PropertyIdentifier.allDefined))
        #expect(properties.count == 28)
        #expect(properties.payloadFormatIndicator == .utf8 && properties.messageExpiryInterval == 60)
        #expect(properties.contentType == "application/json" && properties.responseTopic == "r")
        #expect(properties.correlationData == [1] && properties.topicAlias == 4 && properties.willDelayInterval == 9)
        #expect(properties.subscriptionIdentifiers == [1, 2] && properties.reasonString == "why")
        #expect(properties.sessionExpiryInterval == 3600 && properties.receiveMaximum == 20)
        #expect(properties.maximumPacketSize == 1 << 20 && properties.topicAliasMaximum == 5)
        #expect(properties.requestProblemInformation == false && properties.requestResponseInformation == true)
        #expect(properties.authenticationMethod == "m" && properties.authenticationData == [2])
        #expect(properties.assignedClientIdentifier == "auto-1" && properties.serverKeepAlive == 45)
        #expect(properties.responseInformation == "info" && properties.serverReference == "other:1883")
        #expect(properties.maximumQoS == .atLeastOnce && properties.retainAvailable == false)
        #expect(properties.wildcardSubscriptionAvailable == true && properties.subscriptionIdentifierAvailable == false)
        #expect(properties.sharedSubscriptionAvailable == true && properties.userProperty("im-user-id") == "u1")
    }

    @Test func propertyChecksTheValueType() {
        #expect(throws: MQTTError.self) { try Property(.sessionExpiryInterval, .twoByteInteger(1)) }
        #expect(throws: MQTTError.self) { try Property(PropertyIdentifier(rawValue: 0x04), .byte(1)) }
        #expect(throws: Never.self) { try Property(.sessionExpiryInterval, .fourByteInteger(1)) }
    }

    @Test func validateChecksPlacementRepeatsAndValues() {
        let notAllowed: Properties = [.topicAlias(1)]
        #expect(throws: MQTTError(.malformedPacket, "Topic Alias is not allowed in CONNECT")) { try notAllowed.validate(in: .connect) }
        let repeated: Properties = [.subscriptionIdentifier(1), .subscriptionIdentifier(2)]
        #expect(throws: Never.self) { try repeated.validate(in: .publish) }
        #expect(throws: MQTTError(.protocolError, "Subscription Identifier appears more than once")) { try repeated.validate(in: .subscribe) }
        let zero: Properties = [.receiveMaximum(0)]
        #expect(throws: MQTTError(.protocolError, "Receive Maximum must not be 0")) { try zero.validate(in: .connack) }
    }

    @Test func validateCatchesValuesThatCannotBeEncoded() {
        let long = String(repeating: "x", count: 70_000)
        let packet = Packet.publish(Publish(topic: "t", payload: [], properties: [.contentType(long)]))
        do {
            try packet.validate()
            Issue.record("accepted a 70,000-byte content type")
        } catch {
            #expect(error.message == "cannot be encoded: string of 70000 bytes exceeds 65,535")
        }
        #expect(throws: MQTTError.self) { try Packet.publish(Publish(topic: "a/#", payload: [])).validate() }
        #expect(throws: MQTTError.self) { try Packet.puback(PubAck(packetIdentifier: 0)).validate() }
    }

    @Test func packetsDescribeThemselves() {
        #expect(samplePackets[2].description == #"PUBLISH "im/send/u2" QoS 1 id=9 payload=300B [Payload Format Indicator=1, Content Type="application/json"]"#)
        #expect(Packet.disconnect(Disconnect()).description == "DISCONNECT 0x00 normal disconnection")
        #expect(samplePackets[0].description.contains("password=<hidden>"))
        #expect(!samplePackets[0].description.contains("token"))
        #expect(Packet.suback(SubAck(packetIdentifier: 1, reasonCodes: [.grantedQoS1])).description == "SUBACK id=1 0x01 granted QoS 1")
    }
}
