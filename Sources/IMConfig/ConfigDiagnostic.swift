import IMJSON

/// One problem found in a configuration file, precise enough to fix without searching.
public struct ConfigDiagnostic: Sendable, Equatable, CustomStringConvertible {
    public enum Severity: String, Sendable {
        case error
        case warning
    }

    public var severity: Severity
    /// The file's path as the user gave it.
    public var file: String
    /// Where in the file; `nil` for problems of the whole file (unreadable, permissions).
    public var location: SourceLocation?
    /// The dotted path of the field, such as `accounts.alice.timeout`; empty for the whole file.
    public var field: String
    /// What is wrong, in words a person can act on.
    public var reason: String

    public init(_ severity: Severity, file: String, location: SourceLocation?, field: String, reason: String) {
        self.severity = severity
        self.file = file
        self.location = location
        self.field = field
        self.reason = reason
    }

    /// `FILE:LINE:COL: error: FIELD: REASON`, the shape compilers use so editors can jump to it.
    public var description: String {
        var text = file
        if let location { text += ":\(location)" }
        text += ": \(severity.rawValue): "
        if !field.isEmpty { text += "\(field): " }
        return text + reason
    }
}
