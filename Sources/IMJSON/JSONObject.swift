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

    /// Room for `count` members without growing.
    public mutating func reserveCapacity(_ count: Int) {
        keys.reserveCapacity(count)
        values.reserveCapacity(count)
    }

    /// Appends a member unless one named `key` is there; returns whether it was added. One
    /// hash of the key, where a look-up and then a set took two (the parser's path).
    public mutating func appendIfAbsent(_ key: String, _ value: JSONValue) -> Bool {
        // An inout access to the dictionary's slot finds the bucket once for the test and the write.
        func fill(_ slot: inout JSONValue?) -> Bool {
            guard slot == nil else { return false }
            slot = value
            return true
        }
        guard fill(&values[key]) else { return false }
        keys.append(key)
        return true
    }

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
