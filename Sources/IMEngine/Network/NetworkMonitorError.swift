#if canImport(Glibc)
import Glibc
#endif

/// The network monitor could not start: which call failed and why.
public struct NetworkMonitorError: Error, Sendable, Equatable, CustomStringConvertible {
    public var call: String
    public var code: Int32

    public init(_ call: String, errno code: Int32) {
        self.call = call
        self.code = code
    }

    public var description: String { "network monitor: \(call): \(String(cString: strerror(code)))" }
}
