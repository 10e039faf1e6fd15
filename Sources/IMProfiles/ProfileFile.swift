#if canImport(Glibc)
import Glibc
#endif

/// A profile file's bytes and permission bits, read with a size cap.
struct ProfileFile {
    var bytes: [UInt8]
    /// The permission bits (`st_mode & 0o7777`).
    var mode: mode_t

    /// The permission bits as `chmod` takes them, such as `0644`.
    var octalMode: String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Whether the group or others may read the file.
    var isReadableByOthers: Bool { mode & 0o044 != 0 }

    /// Reads `path`, refusing anything but a regular file of at most `limit` bytes.
    /// The error is the reason, in words, for a whole-file diagnostic.
    static func read(_ path: String, limit: Int) -> Result<ProfileFile, FileProblem> {
        // Non-blocking, so that a FIFO named like a profile cannot hang the loader before fstat.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return .failure(FileProblem("cannot open: \(Self.systemError())")) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { return .failure(FileProblem("cannot stat: \(Self.systemError())")) }
        guard status.st_mode & S_IFMT == S_IFREG else { return .failure(FileProblem("not a regular file")) }
        guard status.st_size <= limit else { return .failure(tooLarge(limit)) }
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var filled = 0
        // The size may change under us: read until end of file, never past the cap.
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(FileProblem("cannot read: \(Self.systemError())"))
            }
            if count == 0 { break }
            filled += count
        }
        guard filled <= limit else { return .failure(tooLarge(limit)) }
        return .success(ProfileFile(bytes: Array(bytes[..<filled]), mode: status.st_mode & 0o7777))
    }

    private static func tooLarge(_ limit: Int) -> FileProblem {
        FileProblem("larger than \(limit) bytes (\(limit / 1024) KiB), the most a profile may be; is this the right file?")
    }

    private static func systemError() -> String { String(cString: strerror(errno)) }
}

/// Why a file could not be read at all.
struct FileProblem: Error {
    var reason: String

    init(_ reason: String) { self.reason = reason }
}
