#if canImport(Glibc)
import Glibc
#endif

/// The closures the path resolutions take, for this process.
public enum ProcessEnvironment {
    /// The variable's value; `HOME`, when unset or empty, comes from the password database.
    public static func variable(_ name: String) -> String? {
        let value = getenv(name).map { String(cString: $0) }
        guard name == "HOME", value?.isEmpty ?? true else { return value }
        return homeFromPasswordDatabase()
    }

    /// Whether `path` names a directory (following links).
    public static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    private static func homeFromPasswordDatabase() -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16 * 1024)
        guard getpwuid_r(getuid(), &entry, &buffer, buffer.count, &result) == 0, result != nil, let directory = entry.pw_dir else {
            return nil
        }
        return String(cString: directory)
    }
}
