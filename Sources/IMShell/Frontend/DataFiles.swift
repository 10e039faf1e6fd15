#if canImport(Glibc)
import Glibc
#endif

/// The data directory on disk.
enum DataFiles {
    /// Creates `path` and its parents (mode 0700, private like the data in them); true when it
    /// exists afterwards.
    static func makeDirectory(_ path: String) -> Bool {
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/\(part)"
            if mkdir(current, 0o700) != 0 && errno != EEXIST { return false }
        }
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }
}
