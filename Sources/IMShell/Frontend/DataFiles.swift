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

    /// Why imsh must not use the data directory `path`, or nil: like ssh with `~/.ssh`, one that
    /// others may write to or that another user owns is refused, since they could plant files
    /// (symlinks, databases) there.
    static func unsafety(of path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        if status.st_uid != geteuid() {
            return "the data directory \(path) is owned by another user (uid \(status.st_uid)); give --data DIR of your own"
        }
        if status.st_mode & 0o022 != 0 {
            let mode = String(status.st_mode & 0o777, radix: 8)
            return "the data directory \(path) is writable by others (mode \(mode)); fix it with: chmod go-w \(path)"
        }
        return nil
    }
}
