import MQTT
import Testing

/// Round trips driven by the property table, so every property is coded in every packet that allows it.
struct RoundTripTests {
    static func sample(_ identifier: PropertyIdentifier) -> Property {
        let raw = identifier.rawValue
        let value: PropertyValue
        switch identifier.definition!.valueType {
        case .byte: value = .byte(1)  // the only value legal for every byte property
        case .twoByteInteger: value = .twoByteInteger(0x1200 | UInt16(raw))
        case .fourByteInteger: value = .fourByteInteger(0x0102_0300 | UInt32(raw))
        case .variableByteInteger: value = .variableByteInteger(268_435_455)
        case .utf8String: value = .string("v\(raw)-ü€😀")
        case .binaryData: value = .binary([0, raw, 0xFF])
        case .utf8StringPair: value = .stringPair(name: "k\(raw)", value: "v")
        }
        return try! Property(identifier, value)
    }

    /// Every property allowed in `context`, and a second copy of each one that may repeat there.
    static func allProperties(in context: PropertyContext) -> Properties {
        var properties = Properties()
        for identifier in PropertyIdentifier.allDefined where identifier.definition!.contexts.contains(context) {
            properties.append(sample(identifier))
        }
        for identifier in PropertyIdentifier.allDefined where identifier.definition!.repeatableIn.contains(context) {
            properties.append(identifier == .userProperty ? .userProperty("k", "second") : .subscriptionIdentifier(7))
        }
        return properties
    }

    /// A packet whose properties are `properties`, for each context that has properties.
    static func packet(for context: PropertyContext, with properties: Properties) -> Packet {
        switch context {
        case .will:
            let will = Will(topic: "w/t", payload: [1, 2], qos: .exactlyOnce, retain: true, properties: properties)
            return .connect(Connect(clientIdentifier: "c", userName: "u", password: [0], will: will))
        case .connect: return .connect(Connect(clientIdentifier: "c", cleanStart: false, keepAlive: 7, properties: properties))
        case .connack: return .connack(ConnAck(sessionPresent: true, properties: properties))
        case .publish: return .publish(Publish(topic: "t/1", payload: [9], qos: .atLeastOnce, packetIdentifier: 3, properties: properties))
        case .puback: return .puback(PubAck(packetIdentifier: 1, properties: properties))
        case .pubrec: return .pubrec(PubRec(packetIdentifier: 2, reasonCode: .quotaExceeded, properties: properties))
        case .pubrel: return .pubrel(PubRel(packetIdentifier: 3, properties: properties))
        case .pubcomp: return .pubcomp(PubComp(packetIdentifier: 4, properties: properties))
        case .subscribe: return .subscribe(Subscribe(packetIdentifier: 5, subscriptions: [.init("a/#")], properties: properties))
        case .suback: return .suback(SubAck(packetIdentifier: 5, reasonCodes: [.grantedQoS2], properties: properties))
        case .unsubscribe: return .unsubscribe(Unsubscribe(packetIdentifier: 6, topicFilters: ["a/#"], properties: properties))
        case .unsuback: return .unsuback(UnsubAck(packetIdentifier: 6, reasonCodes: [.success], properties: properties))
        case .disconnect: return .disconnect(Disconnect(reasonCode: .serverMoved, properties: properties))
        case .auth: return .auth(Auth(reasonCode: .continueAuthentication, properties: properties))
        default: fatalError("not a single context: \(context)")
        }
    }

    @Test func tableCoversAll27PropertiesAndEveryContext() {
        #expect(PropertyIdentifier.allDefined.count == 27)
        #expect(PropertyContext.all.count == 14)
        var covered = Set<PropertyIdentifier>()
        for context in PropertyContext.all {
            covered.formUnion(Self.allProperties(in: context).map(\.identifier))
        }
        #expect(covered == Set(PropertyIdentifier.allDefined))
        #expect(Self.allProperties(in: .puback).map(\.identifier) == [.reasonString, .userProperty, .userProperty])
    }

    @Test(arguments: PropertyContext.all)
    func everyAllowedPropertyRoundTrips(context: PropertyContext) throws {
        let properties = Self.allProperties(in: context)
        try properties.validate(in: context)
        let packet = Self.packet(for: context, with: properties)
        let bytes = packet.encoded()
        let decoded = try Packet(frame: bytes)
        #expect(decoded == packet)
        #expect(decoded.encoded() == bytes)
        try packet.validate()
    }

    @Test(arguments: PropertyContext.all)
    func everyPropertyNotAllowedIsMalformed(context: PropertyContext) {
        for identifier in PropertyIdentifier.allDefined where !identifier.definition!.contexts.contains(context) {
            let bytes = Self.packet(for: context, with: [Self.sample(identifier)]).encoded()
            expectRefused(bytes, .malformedPacket, "\(identifier) in \(context)")
        }
    }

    @Test(arguments: PropertyContext.all)
    func repeatingASingleUsePropertyIsAProtocolError(context: PropertyContext) {
        for identifier in PropertyIdentifier.allDefined {
            let definition = identifier.definition!
            guard definition.contexts.contains(context), !definition.repeatableIn.contains(context) else { continue }
            let property = Self.sample(identifier)
            let bytes = Self.packet(for: context, with: [property, .userProperty("between", "x"), property]).encoded()
            expectRefused(bytes, .protocolError, "\(identifier) twice in \(context)")
        }
    }

    @Test(arguments: samplePackets)
    func samplePacketsRoundTrip(packet: Packet) throws {
        var writer = ByteWriter()
        packet.encode(into: &writer)
        var reader = ByteReader(writer.bytes)
        #expect(try Packet.decode(from: &reader) == packet)
        #expect(reader.isAtEnd)
        try packet.validate()
    }

    @Test func eachTypeDecodesItselfAndRefusesOthers() throws {
        var reader = ByteReader(PubAck(packetIdentifier: 5).encoded())
        #expect(try PubAck.decode(from: &reader) == PubAck(packetIdentifier: 5))
        var other = ByteReader(PubRec(packetIdentifier: 5).encoded())
        #expect(throws: MQTTError.self) { try PubAck.decode(from: &other) }
        #expect(other.offset == 0)
        var partial = ByteReader(Array(Publish(topic: "a", payload: [1, 2]).encoded().dropLast()))
        do {
            _ = try Publish.decode(from: &partial)
            Issue.record("decoded a partial packet")
        } catch {
            #expect(error.kind == .truncated)
        }
    }

    @Test func publishWithTopicAliasAndEmptyTopic() throws {
        let publish = Publish(topic: "", payload: [1], qos: .atMostOnce, properties: [.topicAlias(3)])
        #expect(try Packet(frame: publish.encoded()) == .publish(publish))
    }

    @Test func unknownReasonCodesSurvive() throws {
        let puback = PubAck(packetIdentifier: 1, reasonCode: ReasonCode(0x7E))
        #expect(try Packet(frame: puback.encoded()) == .puback(puback))
        #expect(ReasonCode(0x7E).description == "0x7E unknown reason code")
    }
}
