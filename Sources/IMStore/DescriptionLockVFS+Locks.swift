import CSQLite
#if canImport(Glibc)
import Glibc
#endif

extension DescriptionLockVFS {
    /// The bytes SQLite's file format locks (its `PENDING_BYTE` and those after it): readers
    /// take the shared range, a writer the reserved byte, then the pending byte (no new
    /// readers), then the whole shared range.
    enum LockByte {
        static let pending: off_t = 0x4000_0000
        static let reserved: off_t = pending + 1
        static let sharedFirst: off_t = pending + 2
        static let sharedCount: off_t = 510
    }

    /// Linux's open file description lock commands, which the Glibc module (built without
    /// `_GNU_SOURCE`) does not export; the same on every architecture.
    private enum Command {
        static let get: Int32 = 36
        static let set: Int32 = 37
    }

    /// What setting one lock did.
    private enum Outcome { case done, held, failed }

    /// Takes (or changes to) a lock of `type` on `count` bytes from `start`, without waiting.
    private static func set(_ descriptor: Int32, _ type: Int32, _ start: off_t, _ count: off_t) -> Outcome {
        var request = flock()
        request.l_type = Int16(type)
        request.l_whence = Int16(SEEK_SET)
        request.l_start = start
        request.l_len = count
        while fcntl(descriptor, Command.set, &request) != 0 {
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EACCES ? .held : .failed
        }
        return .done
    }

    private static func code(_ outcome: Outcome) -> Int32 {
        switch outcome {
        case .done: SQLITE_OK
        case .held: SQLITE_BUSY
        case .failed: IOError.lock
        }
    }

    /// `xLock`: up to `level` (SQLite never asks for pending; it passes through it on the
    /// way to exclusive, and stays there when the readers have not gone yet).
    static func lock(_ file: inout LockedFile, to level: Int32) -> Int32 {
        guard file.lock < level else { return SQLITE_OK }
        let descriptor = file.descriptor
        switch level {
        case SQLITE_LOCK_SHARED:
            // The pending byte first, as SQLite's own VFS does: a writer waiting for readers
            // to finish keeps new ones out.
            let pending = set(descriptor, F_RDLCK, LockByte.pending, 1)
            guard pending == .done else { return code(pending) }
            let shared = set(descriptor, F_RDLCK, LockByte.sharedFirst, LockByte.sharedCount)
            _ = set(descriptor, F_UNLCK, LockByte.pending, 1)
            guard shared == .done else { return code(shared) }
        case SQLITE_LOCK_RESERVED:
            let reserved = set(descriptor, F_WRLCK, LockByte.reserved, 1)
            guard reserved == .done else { return code(reserved) }
        case SQLITE_LOCK_EXCLUSIVE:
            if file.lock < SQLITE_LOCK_PENDING {
                let pending = set(descriptor, F_WRLCK, LockByte.pending, 1)
                guard pending == .done else { return code(pending) }
                file.lock = SQLITE_LOCK_PENDING
            }
            let shared = set(descriptor, F_WRLCK, LockByte.sharedFirst, LockByte.sharedCount)
            guard shared == .done else { return code(shared) }
        default:
            return SQLITE_MISUSE
        }
        file.lock = level
        return SQLITE_OK
    }

    /// `xUnlock`: down to shared (the shared range read-locked again, the writer's bytes
    /// let go) or to none.
    static func unlock(_ file: inout LockedFile, to level: Int32) -> Int32 {
        guard file.lock > level else { return SQLITE_OK }
        let descriptor = file.descriptor
        switch level {
        case SQLITE_LOCK_SHARED:
            guard set(descriptor, F_RDLCK, LockByte.sharedFirst, LockByte.sharedCount) == .done,
                  set(descriptor, F_UNLCK, LockByte.pending, 2) == .done else { return IOError.unlock }
        case SQLITE_LOCK_NONE:
            guard set(descriptor, F_UNLCK, LockByte.pending, 2 + LockByte.sharedCount) == .done else { return IOError.unlock }
        default:
            return SQLITE_MISUSE
        }
        file.lock = level
        return SQLITE_OK
    }

    /// `xCheckReservedLock`: whether this connection or another holds the reserved byte (a
    /// writer is at work); nil when the kernel would not say.
    static func isReserved(_ file: LockedFile) -> Bool? {
        if file.lock >= SQLITE_LOCK_RESERVED { return true }
        var probe = flock()
        probe.l_type = Int16(F_WRLCK)
        probe.l_whence = Int16(SEEK_SET)
        probe.l_start = LockByte.reserved
        probe.l_len = 1
        guard fcntl(file.descriptor, Command.get, &probe) == 0 else { return nil }
        return probe.l_type != Int16(F_UNLCK)
    }
}
