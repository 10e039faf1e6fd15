import IMStore

#if canImport(Glibc)
import Glibc
#endif

/// Keeps a data directory to one imsh process at a time: two would run two embedded servers on
/// one store and open the same account databases.
///
/// The lock is flock(2) on `DATA/lock`, which holds the owner's pid; the kernel releases it
/// when the process ends, however it ends.
final class DataLock: Sendable {
    let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Takes the lock of `directory` (created if missing), or says who holds it.
    static func acquire(_ directory: String) throws(ShellError) -> DataLock {
        guard DataFiles.makeDirectory(directory) else {
            throw ShellError("cannot create the data directory \(directory): \(String(cString: strerror(errno))); give --data DIR")
        }
        if let unsafe = DataDirectory.unsafety(of: directory) { throw ShellError(unsafe) }
        let path = "\(directory)/lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ShellError("cannot open \(path): \(String(cString: strerror(errno))); give --data DIR")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = read(descriptor, &buffer, buffer.count)
            close(descriptor)
            let owner = count > 0 ? " (pid \(String(decoding: buffer[..<count], as: UTF8.self)))" : ""
            throw ShellError("the data directory \(directory) is in use by another imsh\(owner); quit that one, or give this one --data DIR")
        }
        let pid = Array(String(getpid()).utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        return DataLock(descriptor: descriptor)
    }
}
