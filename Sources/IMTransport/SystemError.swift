#if canImport(Glibc)
import Glibc
#endif

/// A failed system call, with the call's name and errno turned into words.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The system call or library function that failed, such as `connect`.
    public var call: String
    /// The errno value it left.
    public var code: Int32

    public init(_ call: String, code: Int32 = errno) {
        self.call = call
        self.code = code
    }

    /// The C library's text for `code`, such as "Connection refused".
    public var reason: String { String(cString: strerror(code)) }

    public var description: String { "\(call): \(reason) (errno \(code))" }
}
