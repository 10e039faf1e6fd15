#if canImport(Glibc)
import Glibc
#endif

/// Small files of /proc and /sys, read whole.
public enum ProcFile {
    /// The file's text; nil when it cannot be opened.
    public static func read(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = Glibc.read(descriptor, &chunk, chunk.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The entries of a directory but `.` and `..` (such as /proc/PID/fd); 0 when it cannot be opened.
    public static func countEntries(_ path: String) -> Int {
        guard let directory = opendir(path) else { return 0 }
        var count = 0
        while let entry = readdir(directory) {
            var name = entry.pointee.d_name
            let isDot = withUnsafeBytes(of: &name) { bytes in
                bytes[0] == UInt8(ascii: ".") && (bytes[1] == 0 || (bytes[1] == UInt8(ascii: ".") && bytes[2] == 0))
            }
            if !isDot { count += 1 }
        }
        closedir(directory)
        return count
    }
}
