extension PropertyIdentifier {
    // MQTT 5 table 2-4, indexed by identifier.
    static let definitions: [Definition?] = {
        let ackPackets: PropertyContext = [.puback, .pubrec, .pubrel, .pubcomp, .suback, .unsuback]
        let userPropertyContexts = ackPackets.union([
            .connect, .connack, .publish, .will, .subscribe, .unsubscribe, .disconnect, .auth,
        ])
        let rows: [(UInt8, String, PropertyValueType, PropertyContext)] = [
            (0x01, "Payload Format Indicator", .byte, [.publish, .will]),
            (0x02, "Message Expiry Interval", .fourByteInteger, [.publish, .will]),
            (0x03, "Content Type", .utf8String, [.publish, .will]),
            (0x08, "Response Topic", .utf8String, [.publish, .will]),
            (0x09, "Correlation Data", .binaryData, [.publish, .will]),
            (0x0B, "Subscription Identifier", .variableByteInteger, [.publish, .subscribe]),
            (0x11, "Session Expiry Interval", .fourByteInteger, [.connect, .connack, .disconnect]),
            (0x12, "Assigned Client Identifier", .utf8String, [.connack]),
            (0x13, "Server Keep Alive", .twoByteInteger, [.connack]),
            (0x15, "Authentication Method", .utf8String, [.connect, .connack, .auth]),
            (0x16, "Authentication Data", .binaryData, [.connect, .connack, .auth]),
            (0x17, "Request Problem Information", .byte, [.connect]),
            (0x18, "Will Delay Interval", .fourByteInteger, [.will]),
            (0x19, "Request Response Information", .byte, [.connect]),
            (0x1A, "Response Information", .utf8String, [.connack]),
            (0x1C, "Server Reference", .utf8String, [.connack, .disconnect]),
            (0x1F, "Reason String", .utf8String, ackPackets.union([.connack, .disconnect, .auth])),
            (0x21, "Receive Maximum", .twoByteInteger, [.connect, .connack]),
            (0x22, "Topic Alias Maximum", .twoByteInteger, [.connect, .connack]),
            (0x23, "Topic Alias", .twoByteInteger, [.publish]),
            (0x24, "Maximum QoS", .byte, [.connack]),
            (0x25, "Retain Available", .byte, [.connack]),
            (0x26, "User Property", .utf8StringPair, userPropertyContexts),
            (0x27, "Maximum Packet Size", .fourByteInteger, [.connect, .connack]),
            (0x28, "Wildcard Subscription Available", .byte, [.connack]),
            (0x29, "Subscription Identifier Available", .byte, [.connack]),
            (0x2A, "Shared Subscription Available", .byte, [.connack]),
        ]
        var table = [Definition?](repeating: nil, count: 0x2B)
        for (id, name, type, contexts) in rows {
            // User properties repeat anywhere; a server may tag one PUBLISH with several
            // subscription identifiers, but a SUBSCRIBE carries at most one.
            let repeatable: PropertyContext = id == 0x26 ? contexts : id == 0x0B ? .publish : []
            table[Int(id)] = Definition(name: name, valueType: type, contexts: contexts, repeatableIn: repeatable)
        }
        return table
    }()

    /// Why `value` is not allowed for this property, or nil if it is.
    ///
    /// The standard calls each of these a Protocol Error (0x82).
    func problem(with value: PropertyValue) -> String? {
        switch (self, value) {
        case (.payloadFormatIndicator, .byte(let byte)), (.requestProblemInformation, .byte(let byte)),
            (.requestResponseInformation, .byte(let byte)), (.maximumQoS, .byte(let byte)),
            (.retainAvailable, .byte(let byte)), (.wildcardSubscriptionAvailable, .byte(let byte)),
            (.subscriptionIdentifierAvailable, .byte(let byte)), (.sharedSubscriptionAvailable, .byte(let byte)):
            return byte > 1 ? "\(self) must be 0 or 1, not \(byte)" : nil
        case (.receiveMaximum, .twoByteInteger(0)), (.topicAlias, .twoByteInteger(0)),
            (.maximumPacketSize, .fourByteInteger(0)), (.subscriptionIdentifier, .variableByteInteger(0)):
            return "\(self) must not be 0"
        default:
            return nil
        }
    }
}
