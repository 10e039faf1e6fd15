/// A JSON object: members in insertion order, looked up by key.
public struct JSONObject: Hashable, Sendable {
    /// The member names in order.
    public private(set) var keys: [String] = []
    private var values: [String: JSONValue] = [:]

    public init() {}

    /// An object with `members` in order; a repeated key keeps its first place and last value.
    public init(_ members: [(String, JSONValue)]) {
        keys.reserveCapacity(members.count)
        values.reserveCapacity(members.count)
        for (key, value) in members {
            self[key] = value
        }
    }

    public var count: Int { keys.count }

    /// The member named `key`; setting nil removes it, setting a new key appends it.
    public subscript(key: String) -> JSONValue? {
        get { values[key] }
        set {
            if let newValue {
                if values.updateValue(newValue, forKey: key) == nil {
                    keys.append(key)
                }
            } else if values.removeValue(forKey: key) != nil {
                keys.removeAll { $0 == key }
            }
        }
    }

    /// Calls `body` with each member in order, without building the list of them.
    public func forEachMember(_ body: (String, JSONValue) throws -> Void) rethrows {
        for key in keys { try body(key, values[key]!) }
    }

    /// The members in order.
    public var members: [(key: String, value: JSONValue)] {
        keys.map { ($0, values[$0]!) }
    }
}
