#if canImport(Glibc)
import Glibc
#endif

/// Why a `LineEditor` could not start.
public enum LineEditorError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A system call on the terminal's descriptors failed (`call` names it, `code` is errno).
    case system(call: String, code: Int32)
    /// libedit refused to initialise on the given streams.
    case libedit(String)
    /// The history file could not be opened, read, repaired or rewritten.
    case historyFile(path: String, reason: String)

    public var description: String {
        switch self {
        case .system(let call, let code):
            return "line editor: \(call) failed: \(String(cString: strerror(code))) (errno \(code))"
        case .libedit(let reason):
            return "line editor: libedit: \(reason)"
        case .historyFile(let path, let reason):
            return "history file \(path): \(reason); start without history or fix the file"
        }
    }

    static func historyFile(_ path: String, _ call: String, code: Int32 = errno) -> LineEditorError {
        .historyFile(path: path, reason: "\(call): \(String(cString: strerror(code)))")
    }
}
