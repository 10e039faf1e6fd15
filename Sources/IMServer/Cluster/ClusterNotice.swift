import IMJSON

/// One `ClusterEvent` with the node it came from, as sent through PostgreSQL's NOTIFY: a JSON
/// object, under the 8,000-byte payload limit (`deliveries` splits long lists).
///
/// `{"node":"a1","event":"deliver","app":"k","devices":[["user","device"],...]}`,
/// `{"node":"a1","event":"login","sequence":7,"app":"k","user":"u","device":"d","platform":"mobile"}`,
/// `{"node":"a1","event":"disconnect","app":"k","users":["u"],"reason":142,"error":"kicked"}`.
struct ClusterNotice: Equatable, Sendable {
    var node: String
    var event: ClusterEvent

    /// Deliveries per notice: each takes at most 2 x 64 + 8 bytes, so 50 stay well under 8,000.
    static let deliveriesPerNotice = 50

    /// `deliveries` as as many notices as the payload limit needs.
    static func deliveries(node: String, appKey: String, _ deliveries: [Delivery]) -> [ClusterNotice] {
        stride(from: 0, to: deliveries.count, by: deliveriesPerNotice).map { start in
            let slice = Array(deliveries[start..<min(start + deliveriesPerNotice, deliveries.count)])
            return ClusterNotice(node: node, event: .deliver(appKey: appKey, slice))
        }
    }

    func encoded() -> String {
        var members: [(String, JSONValue)] = [("node", .string(node))]
        switch event {
        case let .deliver(appKey, deliveries):
            members += [("event", "deliver"), ("app", .string(appKey)),
                        ("devices", .array(deliveries.map { .array([.string($0.userID), .string($0.deviceID)]) }))]
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
            var deliveries: [Delivery] = []
            for pair in pairs {
                guard case .array(let fields) = pair, fields.count == 2,
                      let userID = fields[0].stringValue, let deviceID = fields[1].stringValue
                else { throw ClusterNoticeError(payload: payload) }
                deliveries.append(Delivery(userID: userID, deviceID: deviceID))
            }
            event = .deliver(appKey: appKey, deliveries)
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

    init(node: String, event: ClusterEvent) {
        self.node = node
        self.event = event
    }
}
