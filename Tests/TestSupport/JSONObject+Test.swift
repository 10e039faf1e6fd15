import IMJSON

extension JSONObject {
    /// The member `key` as text, an integer, a number (either kind), an object, or an array of objects.
    public func string(_ key: String) -> String? { self[key]?.stringValue }

    public func int(_ key: String) -> Int64? { self[key]?.integerValue }

    public func number(_ key: String) -> Double? {
        switch self[key] {
        case .double(let value)?: return value
        case .integer(let value)?: return Double(value)
        default: return nil
        }
    }

    public func object(_ key: String) -> JSONObject? { self[key]?.objectValue }

    public func objects(_ key: String) -> [JSONObject] {
        guard case .array(let items)? = self[key] else { return [] }
        return items.compactMap(\.objectValue)
    }
}
