import IMJSON

/// Collects the problems of one configuration file while it is read, so that every problem
/// is reported at once instead of one per run.
///
/// Not thread-safe: one reader uses it while loading one file.
public final class ConfigDiagnostics {
    public let file: String
    public private(set) var all: [ConfigDiagnostic] = []

    public init(file: String) { self.file = file }

    /// Whether any error (not warning) was found.
    public var hasErrors: Bool { all.contains { $0.severity == .error } }

    public func error(_ field: String, at location: SourceLocation?, _ reason: String) {
        all.append(ConfigDiagnostic(.error, file: file, location: location, field: field, reason: reason))
    }

    public func warning(_ field: String, at location: SourceLocation?, _ reason: String) {
        all.append(ConfigDiagnostic(.warning, file: file, location: location, field: field, reason: reason))
    }

    /// Parses `bytes` as JSON; on a syntax error records it and returns `nil`.
    public func parse(_ bytes: [UInt8]) -> JSONNode? {
        do {
            return try JSONParser.parse(bytes)
        } catch {
            self.error("", at: error.location, "not valid JSON: \(error.reason)")
            return nil
        }
    }

    /// Reads `node` as an object; records an error and returns `nil` if it is not one.
    public func object(_ node: JSONNode, field: String, allowed: Set<String>) -> ObjectReader? {
        guard case .object(let members) = node.value else {
            error(field, at: node.location, "expected an object, found \(node.typeName)")
            return nil
        }
        return ObjectReader(members: members, location: node.location, path: field, allowed: allowed, diagnostics: self)
    }
}
