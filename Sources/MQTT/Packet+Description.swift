// One-line summaries for logs and the shell: the fields that tell packets apart,
// never the payload itself (it may be large or private).
extension Packet: CustomStringConvertible {
    public var description: String {
        var fields: [String] = []
        var properties = Properties()
        switch self {
        case .connect(let packet):
            fields = ["clientIdentifier=\"\(packet.clientIdentifier)\"", "cleanStart=\(packet.cleanStart)", "keepAlive=\(packet.keepAlive)"]
            if let userName = packet.userName { fields.append("userName=\"\(userName)\"") }
            if packet.password != nil { fields.append("password=<hidden>") }
            if let will = packet.will { fields.append("will=\"\(will.topic)\" \(will.qos)") }
            properties = packet.properties
        case .connack(let packet):
            fields = [packet.reasonCode.description, "sessionPresent=\(packet.sessionPresent)"]
            properties = packet.properties
        case .publish(let packet):
            fields = ["\"\(packet.topic)\"", packet.qos.description]
            if packet.qos != .atMostOnce { fields.append("id=\(packet.packetIdentifier)") }
            if packet.retain { fields.append("retain") }
            if packet.dup { fields.append("dup") }
            fields.append("payload=\(packet.payload.count)B")
            properties = packet.properties
        case .puback(let packet): (fields, properties) = Self.summary(packet)
        case .pubrec(let packet): (fields, properties) = Self.summary(packet)
        case .pubrel(let packet): (fields, properties) = Self.summary(packet)
        case .pubcomp(let packet): (fields, properties) = Self.summary(packet)
        case .subscribe(let packet):
            fields = ["id=\(packet.packetIdentifier)"] + packet.subscriptions.map { "\"\($0.topicFilter)\" \($0.options.qos)" }
            properties = packet.properties
        case .suback(let packet): (fields, properties) = Self.summary(packet)
        case .unsuback(let packet): (fields, properties) = Self.summary(packet)
        case .unsubscribe(let packet):
            fields = ["id=\(packet.packetIdentifier)"] + packet.topicFilters.map { "\"\($0)\"" }
            properties = packet.properties
        case .pingreq, .pingresp:
            break
        case .disconnect(let packet):
            fields = ["\(packet.reasonCode.hex) \(packet.reasonCode.name(in: .disconnect))"]
            properties = packet.properties
        case .auth(let packet):
            fields = [packet.reasonCode.description]
            properties = packet.properties
        }
        if !properties.isEmpty { fields.append(properties.description) }
        return ([type.description] + fields).joined(separator: " ")
    }

    private static func summary<Kind>(_ packet: PublishAcknowledgement<Kind>) -> ([String], Properties) {
        (["id=\(packet.packetIdentifier)", packet.reasonCode.description], packet.properties)
    }

    private static func summary<Kind>(_ packet: SubscriptionAcknowledgement<Kind>) -> ([String], Properties) {
        (["id=\(packet.packetIdentifier)"] + packet.reasonCodes.map(\.description), packet.properties)
    }
}
