#if canImport(Glibc)
import Glibc
#endif

extension Database {
    /// Creates `path` and its missing parents with mode 0700, since what databases hold
    /// (messages, tokens' users) is private; returns what went wrong, or nil.
    public static func createDirectories(_ path: String) -> String? {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o700) != 0 && errno != EEXIST {
                return "mkdir \(current): \(String(cString: strerror(errno)))"
            }
        }
        return nil
    }
}
