#if canImport(Glibc)
import Glibc
#endif

/// Checks on a data directory (imsh's and imserver's) before anything is written in it.
public enum DataDirectory {
    /// Why a program must not use the data directory `path`, or nil: like ssh with `~/.ssh`, one
    /// that others may write to or that another user owns is refused, since they could plant
    /// files (symlinks, databases) there.
    ///
    /// Other directories that take private files are checked alike (`imserver cert --out`):
    /// `name` is what the reason calls the directory, `option` the flag that gives another.
    public static func unsafety(of path: String, name: String = "the data directory", option: String = "--data") -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        if status.st_uid != geteuid() {
            return "\(name) \(path) is owned by another user (uid \(status.st_uid)); give \(option) DIR of your own"
        }
        if status.st_mode & 0o022 != 0 {
            let mode = String(status.st_mode & 0o777, radix: 8)
            return "\(name) \(path) is writable by others (mode \(mode)); fix it with: chmod go-w \(path)"
        }
        return nil
    }

    /// The first of `paths` that exists and is not a regular file (a symlink, say), or nil: a
    /// database opened through a planted link would be written outside the data directory.
    public static func firstNonRegularFile(_ paths: [String]) -> String? {
        paths.first { path in
            var status = stat()
            return lstat(path, &status) == 0 && status.st_mode & S_IFMT != S_IFREG
        }
    }
}
