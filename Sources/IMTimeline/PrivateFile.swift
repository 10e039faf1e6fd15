#if canImport(Glibc)
import Glibc
#endif

/// Writes a file for the user alone: mode 0600, and a symbolic link at the path is refused
/// rather than followed (O_NOFOLLOW), so a planted link cannot redirect the write.
public enum PrivateFile {
    /// Replaces the contents of `path` with `text`; returns why it could not, or nil.
    public static func write(_ text: String, to path: String) -> String? {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let reason = errno == ELOOP ? "it is a symbolic link" : String(cString: strerror(errno))
            return "cannot write \(path): \(reason)"
        }
        defer { close(descriptor) }
        // An existing file keeps its mode through O_CREAT: make it private too.
        guard fchmod(descriptor, 0o600) == 0 else { return "cannot make \(path) private: \(String(cString: strerror(errno)))" }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return "cannot write \(path): \(String(cString: strerror(errno)))"
            }
            bytes = bytes.dropFirst(written)
        }
        return nil
    }
}
