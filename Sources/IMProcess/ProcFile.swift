#if canImport(Glibc)
import Glibc
#endif

/// Small files of /proc and /sys, read whole, and directories listed (those of /proc, the
/// profiles').
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

    /// The names in a directory but `.` and `..` (the pids in /proc, the threads in
    /// /proc/PID/task); empty when it cannot be opened.
    public static func entries(_ path: String) -> [String] {
        names(in: path) ?? []
    }

    /// The names in a directory but `.` and `..`, in the order listed; nil, with `errno` set,
    /// when it cannot be opened.
    public static func names(in path: String) -> [String]? {
        var names: [String] = []
        guard walk(path, { names.append(String(decoding: $0, as: UTF8.self)) }) else { return nil }
        return names
    }

    /// How many names a directory holds but `.` and `..` (the descriptors in /proc/PID/fd,
    /// counted for every scrape: no string is made of them); 0 when it cannot be opened.
    public static func count(_ path: String) -> Int {
        var count = 0
        walk(path) { _ in count += 1 }
        return count
    }

    /// Calls `body` with the bytes of each name in the directory but `.` and `..`; false when
    /// the directory cannot be opened.
    ///
    /// The name is read where it lies: readdir's entries are only as long as their name
    /// (`d_reclen`), so copying a whole `dirent` (280 bytes) read past the last entry of
    /// glibc's buffer, and past its end when that ended a mapping (imsh crashed counting its
    /// 18,000 descriptors).
    @discardableResult
    private static func walk(_ path: String, _ body: (UnsafeRawBufferPointer) -> Void) -> Bool {
        guard let directory = opendir(path) else { return false }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let start = UnsafeRawPointer(entry) + nameOffset
            let name = UnsafeRawBufferPointer(start: start, count: strlen(start.assumingMemoryBound(to: CChar.self)))
            let dots = name.allSatisfy { $0 == UInt8(ascii: ".") }
            if !(dots && (name.count == 1 || name.count == 2)) { body(name) }
        }
        return true
    }

    /// Where a `dirent`'s name starts (19 bytes in on Linux, after the inode, offset, length and type).
    private static let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 19
}
