#if canImport(Glibc)
import Glibc
#endif

/// The few file-system calls the engine needs, with errors that name the path.
enum FileSystem {
    /// Creates `path` and its parents (mode 0700: session data is private) if missing.
    static func createDirectories(atPath path: String) throws(SessionDatabaseError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o700) != 0 && errno != EEXIST {
                throw .cannotOpen(path: path, reason: "mkdir \(current): \(String(cString: strerror(errno)))")
            }
        }
    }
}
