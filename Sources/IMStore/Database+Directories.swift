#if canImport(Glibc)
import Glibc
#endif

extension Database {
    /// Creates `path` and its missing parents with mode 0700, since what databases hold
    /// (messages, tokens' users) is private; returns what went wrong, or nil. From `root`
    /// (the data directory) each component must be a real directory, not a symlink, so nothing
    /// is written outside it.
    public static func createDirectories(_ path: String, below root: String? = nil) -> String? {
        var current = path.hasPrefix("/") ? "" : "."
        let checkedFrom = root.map { $0.split(separator: "/").count - 1 } ?? Int.max
        for (index, component) in path.split(separator: "/").enumerated() {
            current += "/" + component
            if mkdir(current, 0o700) != 0 && errno != EEXIST {
                return "mkdir \(current): \(String(cString: strerror(errno)))"
            }
            var status = stat()
            if index >= checkedFrom, lstat(current, &status) != 0 || status.st_mode & S_IFMT != S_IFDIR {
                return "\(current) is not a directory (a symlink?); remove it"
            }
        }
        return nil
    }

    /// Creates a missing database file 0600 without following a symlink, so SQLite (which
    /// creates 0644 less the umask, and its journals like the file) opens a private file.
    /// `:memory:` and the empty path name no file (SQLite keeps those databases in memory or
    /// in a temporary file of its own): creating one left an empty `:memory:` file in the
    /// working directory of whoever opened an in-memory database.
    static func createPrivately(_ path: String) {
        guard path != ":memory:", !path.isEmpty else { return }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if descriptor >= 0 { Glibc.close(descriptor) }
    }
}
