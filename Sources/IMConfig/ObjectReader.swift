import IMJSON

/// Reads the fields of one JSON object with type and range checks, recording every problem
/// (wrong type, out of range, missing, unknown, repeated) in its `ConfigDiagnostics`.
///
/// A field with a problem reads as `nil`, so the caller can go on and report the rest.
public struct ObjectReader {
    public let members: [JSONNode.Member]
    public let location: SourceLocation
    /// The dotted path of this object; empty at the top of the file.
    public let path: String
    public let diagnostics: ConfigDiagnostics

    init(members: [JSONNode.Member], location: SourceLocation, path: String, allowed: Set<String>, diagnostics: ConfigDiagnostics) {
        self.members = members
        self.location = location
        self.path = path
        self.diagnostics = diagnostics
        var seen: Set<String> = []
        for member in members {
            if !seen.insert(member.key).inserted {
                diagnostics.error(fieldPath(member.key), at: member.keyLocation, "appears more than once")
            } else if !allowed.contains(member.key) {
                let hint = Self.closest(to: member.key, in: allowed).map { " (did you mean '\($0)'?)" } ?? ""
                diagnostics.error(fieldPath(member.key), at: member.keyLocation, "unknown field\(hint)")
            }
        }
    }

    /// The dotted path of a field of this object.
    public func fieldPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// The node of field `key`, if present.
    public func node(_ key: String) -> JSONNode? { members.first { $0.key == key }?.value }

    /// Records "missing" when `key` is absent; returns whether it is present.
    @discardableResult
    public func require(_ key: String) -> Bool {
        guard node(key) == nil else { return true }
        diagnostics.error(fieldPath(key), at: location, "missing (required)")
        return false
    }

    public func string(_ key: String, nonEmpty: Bool = true) -> String? {
        guard let node = node(key) else { return nil }
        guard case .string(let value) = node.value else { return mismatch(key, node, "a string") }
        if nonEmpty && value.isEmpty {
            diagnostics.error(fieldPath(key), at: node.location, "must not be empty")
            return nil
        }
        return value
    }

    public func bool(_ key: String) -> Bool? {
        guard let node = node(key) else { return nil }
        guard case .bool(let value) = node.value else { return mismatch(key, node, "true or false") }
        return value
    }

    public func int(_ key: String, in range: ClosedRange<Int>) -> Int? {
        guard let node = node(key) else { return nil }
        guard case .number(let text) = node.value else { return mismatch(key, node, "a whole number") }
        guard let value = Int(text) else {
            diagnostics.error(fieldPath(key), at: node.location, "expected a whole number, found \(text)")
            return nil
        }
        return checked(key, node, value, range)
    }

    public func double(_ key: String, in range: ClosedRange<Double>) -> Double? {
        guard let node = node(key) else { return nil }
        guard case .number(let text) = node.value, let value = Double(text) else { return mismatch(key, node, "a number") }
        return checked(key, node, value, range)
    }

    /// Reads a nested object field.
    public func object(_ key: String, allowed: Set<String>) -> ObjectReader? {
        guard let node = node(key) else { return nil }
        return diagnostics.object(node, field: fieldPath(key), allowed: allowed)
    }

    private func checked<T: Comparable>(_ key: String, _ node: JSONNode, _ value: T, _ range: ClosedRange<T>) -> T? {
        guard range.contains(value) else {
            diagnostics.error(fieldPath(key), at: node.location, "\(value) is out of range \(range.lowerBound)...\(range.upperBound)")
            return nil
        }
        return value
    }

    private func mismatch<T>(_ key: String, _ node: JSONNode, _ expected: String) -> T? {
        diagnostics.error(fieldPath(key), at: node.location, "expected \(expected), found \(node.typeName)")
        return nil
    }

    /// The allowed name nearest to a misspelt one, when it is close enough to be a likely typo.
    static func closest(to key: String, in allowed: Set<String>) -> String? {
        let lowered = key.lowercased()
        let scored = allowed.map { ($0, editDistance(lowered, $0.lowercased())) }
        guard let best = scored.min(by: { ($0.1, $0.0) < ($1.1, $1.0) }), best.1 <= max(1, key.count / 3) else { return nil }
        return best.0
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8), b = Array(b.utf8)
        var previous = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
