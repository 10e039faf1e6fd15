import IMJSON

/// One `ClusterEvent` with the node it came from, as sent through PostgreSQL's NOTIFY or a link
/// between nodes (`NodeLinks`, deliver notices only): a JSON object, through NOTIFY under the
/// 8,000-byte payload limit (`PostgresStoreFunction` and `PostgresCluster.notify` split long
/// lists and leave out a message too long to fit).
///
/// `{"node":"a1","event":"deliver","app":"k","devices":[["user","device"],...],"previous":[41,...],"at":1764410000123456,
/// "message":{"id":42,"uid":"...","from":"u","to":["v"],"text":"hi","cid":"c","sent":1764410000123}}`,
/// `{"node":"a1","event":"login","sequence":7,"app":"k","user":"u","device":"d","platform":"mobile"}`,
/// `{"node":"a1","event":"disconnect","app":"k","users":["u"],"reason":142,"error":"kicked"}`.
/// A deliver notice's `previous`, `at` and `message` are optional: a node older than them
/// reads the rest (and fetches the queue), which keeps a rolling upgrade working.
struct ClusterNotice: Equatable, Sendable {
    var node: String
    var event: ClusterEvent

    func encoded() -> String {
        var members: [(String, JSONValue)] = [("node", .string(node))]
        switch event {
        case let .deliver(appKey, deliveries, message, at):
            members += [("event", "deliver"), ("app", .string(appKey)),
                        ("devices", .array(deliveries.map { .array([.string($0.userID), .string($0.deviceID)]) }))]
            if deliveries.allSatisfy({ $0.previous != nil }) {
                members.append(("previous", .array(deliveries.map { .integer($0.previous ?? 0) })))
            }
            if at != 0 { members.append(("at", .integer(at))) }
            if let message { members.append(("message", Self.encoded(message))) }
        case let .login(sequence, appKey, userID, deviceID, platform):
            members += [("event", "login"), ("sequence", .integer(sequence)), ("app", .string(appKey)),
                        ("user", .string(userID)), ("device", .string(deviceID)), ("platform", .string(platform))]
        case let .disconnect(appKey, userIDs, reasonCode, errorName):
            members += [("event", "disconnect"), ("app", .string(appKey)), ("users", .array(userIDs.map { .string($0) })),
                        ("reason", .integer(Int64(reasonCode))), ("error", .string(errorName))]
        }
        return String(decoding: JSONValue.object(JSONObject(members)).encoded(), as: UTF8.self)
    }

    /// Reads a payload; a payload this version does not understand (a newer node's) is an error
    /// the listener logs and skips.
    init(parsing payload: String) throws(ClusterNoticeError) {
        guard let object = (try? JSONValue(parsing: payload))?.objectValue,
              let node = object["node"]?.stringValue, let kind = object["event"]?.stringValue,
              let appKey = object["app"]?.stringValue
        else { throw ClusterNoticeError(payload: payload) }
        self.node = node
        switch kind {
        case "deliver":
            guard case .array(let pairs)? = object["devices"] else { throw ClusterNoticeError(payload: payload) }
            var previous: [Int64]?
            if case .array(let values)? = object["previous"] {
                previous = values.compactMap(\.integerValue)
                guard previous?.count == pairs.count else { throw ClusterNoticeError(payload: payload) }
            }
            var deliveries: [Delivery] = []
            for (index, pair) in pairs.enumerated() {
                guard case .array(let fields) = pair, fields.count == 2,
                      let userID = fields[0].stringValue, let deviceID = fields[1].stringValue
                else { throw ClusterNoticeError(payload: payload) }
                deliveries.append(Delivery(userID: userID, deviceID: deviceID, previous: previous?[index]))
            }
            var message: QueuedMessage?
            if let fields = object["message"] {
                guard let parsed = Self.message(fields) else { throw ClusterNoticeError(payload: payload) }
                message = parsed
            }
            event = .deliver(appKey: appKey, deliveries, message: message, at: object["at"]?.integerValue ?? 0)
        case "login":
            guard let sequence = object["sequence"]?.integerValue, let userID = object["user"]?.stringValue,
                  let deviceID = object["device"]?.stringValue, let platform = object["platform"]?.stringValue
            else { throw ClusterNoticeError(payload: payload) }
            event = .login(sequence: sequence, appKey: appKey, userID: userID, deviceID: deviceID, platform: platform)
        case "disconnect":
            guard case .array(let users)? = object["users"], let reason = object["reason"]?.integerValue,
                  let reasonCode = UInt8(exactly: reason), let errorName = object["error"]?.stringValue
            else { throw ClusterNoticeError(payload: payload) }
            let userIDs = users.compactMap(\.stringValue)
            guard userIDs.count == users.count else { throw ClusterNoticeError(payload: payload) }
            event = .disconnect(appKey: appKey, userIDs: userIDs, reasonCode: reasonCode, errorName: errorName)
        default:
            throw ClusterNoticeError(payload: payload)
        }
    }

    /// The bytes every notice from `node` begins with, as `encoded()` and the store function's
    /// notices for small batches write it: a node drops its own notices (a third of what it
    /// hears) by this prefix without parsing them. Any other layout is parsed.
    static func prefix(of node: String) -> [UInt8] {
        Array(#"{"node":"#.utf8) + JSONValue.string(node).encoded() + [UInt8(ascii: ",")]
    }

    init(node: String, event: ClusterEvent) {
        self.node = node
        self.event = event
    }

    private static func encoded(_ message: QueuedMessage) -> JSONValue {
        .object(JSONObject([
            ("id", .integer(message.messageID)), ("uid", .string(message.uid)), ("from", .string(message.from)),
            ("to", .array(message.to.map { .string($0) })), ("text", .string(message.text)), ("cid", .string(message.cid)),
            ("sent", .integer(message.sentAt)),
        ]))
    }

    private static func message(_ value: JSONValue) -> QueuedMessage? {
        guard let object = value.objectValue, let id = object["id"]?.integerValue, let uid = object["uid"]?.stringValue,
              let from = object["from"]?.stringValue, case .array(let to)? = object["to"],
              let text = object["text"]?.stringValue, let cid = object["cid"]?.stringValue,
              let sent = object["sent"]?.integerValue
        else { return nil }
        let recipients = to.compactMap(\.stringValue)
        guard recipients.count == to.count else { return nil }
        return QueuedMessage(messageID: id, uid: uid, from: from, to: recipients, text: text, cid: cid, sentAt: sent)
    }
}
