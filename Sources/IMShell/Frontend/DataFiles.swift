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

    /// The first of the directories from `root` (excluded) down to `path` that exists and is not
    /// a real directory (a symlink, say), or nil: what imsh writes there must stay inside `root`.
    static func firstNonDirectory(in path: String, below root: String) -> String? {
        guard path.hasPrefix(root + "/") else { return nil }
        var current = root
        for part in path.dropFirst(root.count + 1).split(separator: "/") {
            current += "/\(part)"
            var status = stat()
            if lstat(current, &status) == 0, status.st_mode & S_IFMT != S_IFDIR { return current }
        }
        return nil
    }
}
