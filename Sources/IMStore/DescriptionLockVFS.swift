import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// A SQLite VFS whose database files lock with open file description locks (Linux's
/// `F_OFD_SETLK`), for processes that hold thousands of database files open at once.
///
/// Why: POSIX record locks belong to the process, and closing any descriptor of a file drops
/// all of them, so SQLite's unix VFS keeps a process-wide list of every database file open,
/// one entry per inode, and walks it (twice) at each open to share a file's locks between its
/// connections. A session engine opens its files again and again (idle ones are given back,
/// `DatabaseQueue.IdleClosing`): with 7,500 sessions a process, the walks were 40 % of
/// `imsh bench connect`'s CPU, and through this VFS the bench took 54-63 s of CPU for 30,000
/// sessions instead of 95-108 (BENCHMARKS.md, "SQLite's own layers"). Open file description
/// locks belong to the descriptor's open file description instead: each connection's locks
/// are its own, and no list is needed.
///
/// What it keeps: the same lock bytes and steps as SQLite's own (pending, reserved, the shared
/// range; its file format's locking protocol), so a stock SQLite in another process (the
/// `sqlite3` shell, Python) and this one exclude each other, since Linux makes both kinds of
/// lock conflict. Two connections of this process to one file exclude each other too.
///
/// What it leaves: only main database files are its own; journals, WALs and temporary files
/// open through the default VFS, unchanged (SQLite opens those without locks). Its files have
/// no shared-memory index, so a file already in WAL mode (another program set it) opens
/// through the default VFS too, and a file of its own goes to WAL only in exclusive locking
/// mode, as SQLite allows. `Database.Configuration.compact` (a rollback journal, the lock
/// kept) is what it is for: a file it finds in WAL mode is turned back at that open.
/// No memory mapping and no chunked growth: the compact files use neither.
enum DescriptionLockVFS {
    /// The name to open a database with (`sqlite3_open_v2`'s last argument), or to wrap it.
    static let name = "imsh-description-lock"

    /// Whether the VFS is registered; the first call registers it.
    static var isAvailable: Bool { registration != nil }

    /// The default VFS, which opens every file but main databases, and this VFS's file methods.
    nonisolated(unsafe) private static let registration: (base: UnsafeMutablePointer<sqlite3_vfs>,
                                                          methods: UnsafeMutablePointer<sqlite3_io_methods>)? = {
        Database.configureProcess()
        guard let base = sqlite3_vfs_find(nil) else { return nil }
        let vfs = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
        vfs.initialize(to: base.pointee)
        vfs.pointee.pNext = nil
        vfs.pointee.zName = UnsafePointer(strdup(name))
        vfs.pointee.szOsFile = max(base.pointee.szOsFile, Int32(MemoryLayout<LockedFile>.size))
        vfs.pointee.xOpen = open
        let methods = UnsafeMutablePointer<sqlite3_io_methods>.allocate(capacity: 1)
        methods.initialize(to: Self.methods)
        guard sqlite3_vfs_register(vfs, 0) == SQLITE_OK else { return nil }
        return (base, methods)
    }()

    /// A main database file as SQLite holds it: its header, the descriptor, the lock held.
    struct LockedFile {
        var header: sqlite3_file
        var descriptor: Int32
        var lock: Int32
    }

    private static func withFile<T>(_ file: UnsafeMutablePointer<sqlite3_file>?, _ body: (inout LockedFile) -> T) -> T? {
        guard let file else { return nil }
        return file.withMemoryRebound(to: LockedFile.self, capacity: 1) { body(&$0.pointee) }
    }

    /// SQLite's extended I/O error codes, macros Swift does not import (`SQLITE_IOERR_READ`, ...).
    enum IOError {
        static let read = SQLITE_IOERR | 1 << 8
        static let shortRead = SQLITE_IOERR | 2 << 8
        static let write = SQLITE_IOERR | 3 << 8
        static let fsync = SQLITE_IOERR | 4 << 8
        static let truncate = SQLITE_IOERR | 6 << 8
        static let fstat = SQLITE_IOERR | 7 << 8
        static let unlock = SQLITE_IOERR | 8 << 8
        static let checkReservedLock = SQLITE_IOERR | 14 << 8
        static let lock = SQLITE_IOERR | 15 << 8
    }

    // MARK: Opening

    private static let open: @convention(c) (
        UnsafeMutablePointer<sqlite3_vfs>?, sqlite3_filename?, UnsafeMutablePointer<sqlite3_file>?, Int32, UnsafeMutablePointer<Int32>?
    ) -> Int32 = { _, name, file, flags, outFlags in
        guard let file, let (base, methods) = registration, let baseOpen = base.pointee.xOpen else { return SQLITE_MISUSE }
        guard flags & SQLITE_OPEN_MAIN_DB != 0, flags & SQLITE_OPEN_DELETEONCLOSE == 0, let name else {
            return baseOpen(base, name, file, flags, outFlags)
        }
        file.pointee.pMethods = nil
        var readOnly = flags & SQLITE_OPEN_READWRITE == 0
        var systemFlags = O_CLOEXEC | O_NOFOLLOW | (readOnly ? O_RDONLY : O_RDWR)
        if flags & SQLITE_OPEN_CREATE != 0 { systemFlags |= O_CREAT }
        if flags & SQLITE_OPEN_EXCLUSIVE != 0 { systemFlags |= O_EXCL }
        var descriptor = openNoAccessTime(name, systemFlags)
        // As SQLite's own VFS does: a file this process may only read opens read-only.
        if descriptor < 0, !readOnly, flags & SQLITE_OPEN_CREATE == 0, [EACCES, EPERM, EROFS].contains(errno) {
            readOnly = true
            descriptor = openNoAccessTime(name, (systemFlags & ~O_RDWR) | O_RDONLY)
        }
        guard descriptor >= 0 else { return SQLITE_CANTOPEN }
        // Never 0-2: a stray write to standard output would land in the database.
        if descriptor <= 2 {
            let moved = fcntl(descriptor, F_DUPFD_CLOEXEC, 3)
            Glibc.close(descriptor)
            guard moved >= 0 else { return SQLITE_CANTOPEN }
            descriptor = moved
        }
        // A file in WAL mode (another program made it so) needs a shared-memory index, which
        // only the default VFS has: it opens there, until its journal mode changes back. (Two
        // bytes read at each open; SQLite reads the header next, from the same cached page.)
        if isInWALMode(descriptor) {
            Glibc.close(descriptor)
            return baseOpen(base, name, file, flags, outFlags)
        }
        withFile(file) { $0 = LockedFile(header: sqlite3_file(pMethods: UnsafePointer(methods)), descriptor: descriptor, lock: SQLITE_LOCK_NONE) }
        outFlags?.pointee = readOnly ? (flags & ~SQLITE_OPEN_READWRITE & ~SQLITE_OPEN_CREATE) | SQLITE_OPEN_READONLY : flags
        return SQLITE_OK
    }

    /// Whether the file's header says WAL (its format versions, bytes 18 and 19, are 2); a
    /// new or short file is not.
    private static func isInWALMode(_ descriptor: Int32) -> Bool {
        var versions: (UInt8, UInt8) = (0, 0)
        let read = withUnsafeMutableBytes(of: &versions) { pread(descriptor, $0.baseAddress, 2, 18) }
        return read == 2 && (versions.0 == 2 || versions.1 == 2)
    }

    /// open(2) with `O_NOATIME` where the process owns the file (see `Database.openFilesWithoutAccessTime`).
    private static func openNoAccessTime(_ path: UnsafePointer<CChar>, _ flags: Int32) -> Int32 {
        if let noAccessTime = Database.noAccessTimeFlag {
            let descriptor = Glibc.open(path, flags | noAccessTime, 0o600)
            guard descriptor < 0, errno == EPERM else { return descriptor }
        }
        return Glibc.open(path, flags, 0o600)
    }

    // MARK: The file methods

    private static let methods = sqlite3_io_methods(
        iVersion: 1,
        xClose: { file in
            // Closing the only descriptor of its open file description drops its locks.
            withFile(file) { if $0.descriptor >= 0 { Glibc.close($0.descriptor) }; $0.descriptor = -1 }
            file?.pointee.pMethods = nil
            return SQLITE_OK
        },
        xRead: { file, buffer, count, offset in
            guard let buffer, let descriptor = withFile(file, \.descriptor) else { return SQLITE_MISUSE }
            var done = 0
            while done < Int(count) {
                let read = pread(descriptor, buffer + done, Int(count) - done, off_t(offset) + off_t(done))
                if read < 0 && errno == EINTR { continue }
                guard read >= 0 else { return IOError.read }
                if read == 0 { break }
                done += read
            }
            guard done < Int(count) else { return SQLITE_OK }
            // SQLite's rule: the bytes past the end read as zeros.
            memset(buffer + done, 0, Int(count) - done)
            return IOError.shortRead
        },
        xWrite: { file, buffer, count, offset in
            guard let buffer, let descriptor = withFile(file, \.descriptor) else { return SQLITE_MISUSE }
            var done = 0
            while done < Int(count) {
                let written = pwrite(descriptor, buffer + done, Int(count) - done, off_t(offset) + off_t(done))
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return written == 0 || errno == ENOSPC ? SQLITE_FULL : IOError.write }
                done += written
            }
            return SQLITE_OK
        },
        xTruncate: { file, size in
            guard let descriptor = withFile(file, \.descriptor) else { return SQLITE_MISUSE }
            return ftruncate(descriptor, off_t(size)) == 0 ? SQLITE_OK : IOError.truncate
        },
        xSync: { file, flags in
            guard let descriptor = withFile(file, \.descriptor) else { return SQLITE_MISUSE }
            let code = flags & SQLITE_SYNC_DATAONLY != 0 ? fdatasync(descriptor) : fsync(descriptor)
            return code == 0 ? SQLITE_OK : IOError.fsync
        },
        xFileSize: { file, size in
            guard let size, let descriptor = withFile(file, \.descriptor) else { return SQLITE_MISUSE }
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { return IOError.fstat }
            size.pointee = sqlite3_int64(status.st_size)
            return SQLITE_OK
        },
        xLock: { file, level in withFile(file) { lock(&$0, to: level) } ?? SQLITE_MISUSE },
        xUnlock: { file, level in withFile(file) { unlock(&$0, to: level) } ?? SQLITE_MISUSE },
        xCheckReservedLock: { file, out in
            guard let out, let reserved = withFile(file, { isReserved($0) }) else { return SQLITE_MISUSE }
            guard let reserved else { return IOError.checkReservedLock }
            out.pointee = reserved ? 1 : 0
            return SQLITE_OK
        },
        xFileControl: { _, _, _ in SQLITE_NOTFOUND },
        // SQLite's own VFS's answers on Linux.
        xSectorSize: { _ in 4096 },
        xDeviceCharacteristics: { _ in SQLITE_IOCAP_POWERSAFE_OVERWRITE },
        xShmMap: nil, xShmLock: nil, xShmBarrier: nil, xShmUnmap: nil, xFetch: nil, xUnfetch: nil
    )
}
