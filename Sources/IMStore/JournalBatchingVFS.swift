import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// A SQLite VFS over the default one (or over `DescriptionLockVFS`: it is registered twice)
/// that gathers a rollback journal's records, or a WAL's frames, and writes them with one
/// system call, just before they have to be in the file.
///
/// Why: SQLite writes each page it journals as three writes (page number, page, checksum),
/// so a session's commit of three pages cost fourteen pwrite(2)s, two commits a message
/// (BENCHMARKS.md, issue 17's sixth step). Gathered, the same commit costs five. A WAL frame is
/// two writes (its header, the page): the server's commit of five pages, ten.
///
/// What it still buys, measured again at 5d174ec (2026-11-29, strace -c, a build that skipped
/// it beside one that did not; BENCHMARKS.md, "SQLite's own layers"): imserver saturated by 20
/// pairs made 0.11 pwrite(2) a message against 1.12 without it, and the engine at 5,000
/// messages/s over 100 pairs 3.65 against 6.14. CPU a message moved by a few per cent, within
/// the runs' spread, so the figure that decides is the system calls.
///
/// Why it is as safe as writing at once: what reaches the file, and in which order against
/// the database file, is unchanged. The gathered records go out before any write, truncation
/// or sync of the database file (the journal must precede the pages it protects), before any
/// read, size, truncation, sync or close of the journal itself. The header that opens a
/// transaction is gathered with its records (one write for both); any other write at the
/// journal's start (the zeroed header that ends a transaction) goes straight through after
/// them. A process killed while records wait has not yet written the database file for
/// them, and the journal on disk still ends the previous transaction, so both are as they
/// were: the same state SQLite leaves when killed between its own writes.
///
/// A WAL's frames go out with the page of a transaction's last frame (its header carries the
/// database's size after the commit), so a failed write fails that COMMIT, and before any
/// read, size, truncation, sync or close of the WAL and any barrier or lock of its index.
/// SQLite publishes a commit in the WAL index only after its frames are written, so no
/// connection, here or in another process, can see frames that are not in the file yet. A
/// process killed while frames wait has not committed them: recovery finds the WAL as SQLite
/// leaves it when killed between its frames' writes. The WAL's header (offset 0, a restart)
/// goes straight through. Other files pass through untouched.
///
/// One file object is used by one connection at a time, so the state needs no lock.
enum JournalBatchingVFS {
    /// The name to open a database with (`sqlite3_open_v2`'s last argument), over the default VFS.
    static let name = "imsh-journal-batching"
    /// The same over `DescriptionLockVFS`, for the files that lock through it.
    static let nameOverDescriptionLocks = "imsh-journal-batching-description-lock"

    /// Whether the VFS is registered; the first call registers it.
    static var isAvailable: Bool { fileMethods != nil }

    /// Whether the one over `DescriptionLockVFS` is registered; the first call registers it.
    static var isAvailableOverDescriptionLocks: Bool { overDescriptionLocks }

    /// The file methods, once this VFS is registered over the default one; nil when SQLite
    /// has no default VFS. Each registration keeps the VFS it wraps in its `pAppData`.
    nonisolated(unsafe) private static let fileMethods: UnsafeMutablePointer<sqlite3_io_methods>? = {
        // Finding a VFS initializes SQLite: the process's settings go first.
        Database.configureProcess()
        guard let base = sqlite3_vfs_find(nil) else { return nil }
        let methods = UnsafeMutablePointer<sqlite3_io_methods>.allocate(capacity: 1)
        methods.initialize(to: Self.methods)
        return register(name, over: base) ? methods : nil
    }()

    private static let overDescriptionLocks: Bool = {
        guard isAvailable, DescriptionLockVFS.isAvailable, let base = sqlite3_vfs_find(DescriptionLockVFS.name) else { return false }
        return register(nameOverDescriptionLocks, over: base)
    }()

    private static func register(_ name: String, over base: UnsafeMutablePointer<sqlite3_vfs>) -> Bool {
        let vfs = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
        vfs.initialize(to: base.pointee)
        vfs.pointee.pNext = nil
        vfs.pointee.zName = UnsafePointer(strdup(name))
        vfs.pointee.szOsFile = Int32(headerSize) + base.pointee.szOsFile
        vfs.pointee.xOpen = open
        vfs.pointee.pAppData = UnsafeMutableRawPointer(base)
        return sqlite3_vfs_register(vfs, 0) == SQLITE_OK
    }

    // MARK: The file object: SQLite's header, then ours, then the wrapped VFS's file.

    /// `pMethods`, then a pointer to the `FileState`.
    private static let headerSize = 16

    private static func inner(_ file: UnsafeMutablePointer<sqlite3_file>) -> UnsafeMutablePointer<sqlite3_file> {
        (UnsafeMutableRawPointer(file) + headerSize).assumingMemoryBound(to: sqlite3_file.self)
    }

    private static func stateSlot(_ file: UnsafeMutablePointer<sqlite3_file>) -> UnsafeMutablePointer<UnsafeMutableRawPointer?> {
        (UnsafeMutableRawPointer(file) + 8).assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
    }

    private static func state(_ file: UnsafeMutablePointer<sqlite3_file>?) -> FileState? {
        guard let file, file.pointee.pMethods == UnsafePointer(fileMethods), let raw = stateSlot(file).pointee else {
            return nil
        }
        return Unmanaged<FileState>.fromOpaque(raw).takeUnretainedValue()
    }

    /// What this VFS knows of one open file.
    private final class FileState {
        /// The records waiting, when the file is a rollback journal or a WAL.
        let records: JournalRecords?
        /// The journal or WAL of this database file, when it has one open.
        var journal: JournalRecords?

        init(records: JournalRecords?) { self.records = records }
    }

    /// A journal's records not yet written: contiguous bytes from `start`.
    private final class JournalRecords {
        /// The journal's own file in the default VFS; nil once closed.
        var file: UnsafeMutablePointer<sqlite3_file>?
        var bytes: [UInt8] = []
        var start: Int64 = 0
        /// Records gathered, the writes they went out in, and writes that went straight through (for tests).
        var gathered = 0
        var flushes = 0
        var direct = 0
        /// The most one write may carry: the default VFS writes at most 0x1ffff bytes a call
        /// and takes a shorter write for a full disk (`SQLITE_FULL`). Records that would pass
        /// it go out first; one record is at most a page (64 KiB) and a few bytes.
        static let limit = 0x1ffff

        /// A WAL's: its frames are headers of `frameHeaderSize` bytes, each followed by a page.
        let isWAL: Bool
        /// The header of a transaction's last frame was gathered: its page ends the commit.
        private var commitFrameOpen = false
        static let frameHeaderSize = 24

        init(file: UnsafeMutablePointer<sqlite3_file>, isWAL: Bool) {
            self.file = file
            self.isWAL = isWAL
        }

        func add(_ buffer: UnsafeRawPointer, count: Int, at offset: Int64) -> Int32 {
            if !bytes.isEmpty && (offset != start + Int64(bytes.count) || bytes.count + count > Self.limit) {
                let code = flush()
                guard code == SQLITE_OK else { return code }
            }
            if bytes.isEmpty { start = offset }
            // As typed bytes: a raw buffer would be appended a byte at a time.
            UnsafeRawBufferPointer(start: buffer, count: count).withMemoryRebound(to: UInt8.self) { bytes.append(contentsOf: $0) }
            gathered += 1
            guard isWAL else { return SQLITE_OK }
            let endsCommit = commitFrameOpen
            // Bytes 4-7 of a frame's header: the database's size in pages after a commit, 0 in other frames.
            commitFrameOpen = count == Self.frameHeaderSize && UnsafeRawBufferPointer(start: buffer + 4, count: 4).contains { $0 != 0 }
            return endsCommit ? flush() : SQLITE_OK
        }

        /// Whether a write at the journal's start is a rollback journal's header opening a
        /// transaction with nothing waiting: it is gathered with the records that follow it.
        /// Until they go out, the journal's header on disk is the previous commit's zeroed one
        /// (or the file is empty), so the journal is not hot, and the database file has not
        /// been written for this transaction: a process killed meanwhile leaves both as they
        /// were. The zeroed header that ends a transaction has no magic and goes straight through.
        func opensTransaction(_ buffer: UnsafeRawPointer, count: Int, at offset: Int64) -> Bool {
            guard !isWAL, offset == 0, bytes.isEmpty, count >= Self.journalMagic.count else { return false }
            return Self.journalMagic.withUnsafeBytes { memcmp(buffer, $0.baseAddress!, $0.count) == 0 }
        }

        /// The first eight bytes of a rollback journal's header (SQLite's file format).
        static let journalMagic: [UInt8] = [0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]

        func flush() -> Int32 {
            guard !bytes.isEmpty else { return SQLITE_OK }
            // A WAL's buffer is kept for the next commit (a server has a few); a session's
            // journal gives its memory back, as thousands of them are open at once.
            defer { bytes.removeAll(keepingCapacity: isWAL) }
            guard let file, let write = file.pointee.pMethods?.pointee.xWrite else { return SQLITE_IOERR }
            flushes += 1
            return bytes.withUnsafeBytes { write(file, $0.baseAddress, Int32($0.count), start) }
        }
    }

    /// The records gathered, the writes they went out in and the writes that went straight
    /// through, for the journal file object `journal` (`SQLITE_FCNTL_JOURNAL_POINTER`); nil
    /// for a file of another VFS.
    static func counts(ofJournal journal: UnsafeMutablePointer<sqlite3_file>?) -> (gathered: Int, written: Int, direct: Int)? {
        guard let records = state(journal)?.records else { return nil }
        return (records.gathered, records.flushes, records.direct)
    }

    // MARK: The VFS

    private static let open: @convention(c) (
        UnsafeMutablePointer<sqlite3_vfs>?, sqlite3_filename?, UnsafeMutablePointer<sqlite3_file>?, Int32, UnsafeMutablePointer<Int32>?
    ) -> Int32 = { vfs, name, file, flags, outFlags in
        guard let file, let methods = fileMethods, let base = vfs?.pointee.pAppData?.assumingMemoryBound(to: sqlite3_vfs.self),
              let baseOpen = base.pointee.xOpen else { return SQLITE_MISUSE }
        file.pointee.pMethods = nil
        stateSlot(file).pointee = nil
        let inner = inner(file)
        let code = baseOpen(base, name, inner, flags, outFlags)
        guard code == SQLITE_OK else { return code }
        let isJournal = flags & (SQLITE_OPEN_MAIN_JOURNAL | SQLITE_OPEN_WAL) != 0
        let state = FileState(records: isJournal ? JournalRecords(file: inner, isWAL: flags & SQLITE_OPEN_WAL != 0) : nil)
        stateSlot(file).pointee = Unmanaged.passRetained(state).toOpaque()
        file.pointee.pMethods = UnsafePointer(methods)
        if isJournal, let name, let database = Self.state(sqlite3_database_file_object(name)) {
            database.journal = state.records
        }
        return SQLITE_OK
    }

    /// Writes what the file's journal (or the journal itself) has gathered; SQLITE_OK when nothing waits.
    private static func flushJournal(of file: UnsafeMutablePointer<sqlite3_file>?) -> Int32 {
        guard let state = state(file) else { return SQLITE_OK }
        return (state.records ?? state.journal)?.flush() ?? SQLITE_OK
    }

    private static func methodsOf(_ file: UnsafeMutablePointer<sqlite3_file>?) -> sqlite3_io_methods? {
        guard let file else { return nil }
        return inner(file).pointee.pMethods?.pointee
    }

    private static let methods = sqlite3_io_methods(
        iVersion: 3,
        xClose: { file in
            guard let file else { return SQLITE_MISUSE }
            let flushed = flushJournal(of: file)
            if let raw = stateSlot(file).pointee {
                let state = Unmanaged<FileState>.fromOpaque(raw).takeRetainedValue()
                state.records?.file = nil
                stateSlot(file).pointee = nil
            }
            let code = methodsOf(file)?.xClose?(inner(file)) ?? SQLITE_OK
            file.pointee.pMethods = nil
            return flushed == SQLITE_OK ? code : flushed
        },
        xRead: { file, buffer, count, offset in
            if let records = state(file)?.records {
                let code = records.flush()
                guard code == SQLITE_OK else { return code }
            }
            return methodsOf(file)?.xRead?(inner(file!), buffer, count, offset) ?? SQLITE_IOERR
        },
        xWrite: { file, buffer, count, offset in
            guard let file, let buffer else { return SQLITE_MISUSE }
            let state = state(file)
            if let records = state?.records, offset > 0 || records.opensTransaction(buffer, count: Int(count), at: offset) {
                return records.add(buffer, count: Int(count), at: offset)
            }
            let code = flushJournal(of: file)
            guard code == SQLITE_OK else { return code }
            state?.records?.direct += 1
            return methodsOf(file)?.xWrite?(inner(file), buffer, count, offset) ?? SQLITE_IOERR
        },
        xTruncate: { file, size in
            let code = flushJournal(of: file)
            guard code == SQLITE_OK else { return code }
            return methodsOf(file)?.xTruncate?(inner(file!), size) ?? SQLITE_IOERR
        },
        xSync: { file, flags in
            let code = flushJournal(of: file)
            guard code == SQLITE_OK else { return code }
            return methodsOf(file)?.xSync?(inner(file!), flags) ?? SQLITE_IOERR
        },
        xFileSize: { file, size in
            if let records = state(file)?.records {
                let code = records.flush()
                guard code == SQLITE_OK else { return code }
            }
            return methodsOf(file)?.xFileSize?(inner(file!), size) ?? SQLITE_IOERR
        },
        xLock: { file, level in methodsOf(file)?.xLock?(inner(file!), level) ?? SQLITE_IOERR },
        xUnlock: { file, level in methodsOf(file)?.xUnlock?(inner(file!), level) ?? SQLITE_IOERR },
        xCheckReservedLock: { file, out in methodsOf(file)?.xCheckReservedLock?(inner(file!), out) ?? SQLITE_IOERR },
        xFileControl: { file, op, argument in methodsOf(file)?.xFileControl?(inner(file!), op, argument) ?? SQLITE_NOTFOUND },
        xSectorSize: { file in methodsOf(file)?.xSectorSize?(inner(file!)) ?? 4096 },
        xDeviceCharacteristics: { file in methodsOf(file)?.xDeviceCharacteristics?(inner(file!)) ?? 0 },
        xShmMap: { file, page, size, extend, out in methodsOf(file)?.xShmMap?(inner(file!), page, size, extend, out) ?? SQLITE_IOERR },
        // A commit is published in the WAL index between the barrier and the write lock's
        // release. Its frames went out with its last one already; should a SQLite to come write
        // its frames otherwise, they go out here, before anyone can see the commit.
        xShmLock: { file, offset, count, flags in
            let code = flushJournal(of: file)
            guard code == SQLITE_OK else { return code }
            return methodsOf(file)?.xShmLock?(inner(file!), offset, count, flags) ?? SQLITE_IOERR
        },
        xShmBarrier: { file in
            _ = flushJournal(of: file)
            methodsOf(file)?.xShmBarrier?(inner(file!))
        },
        xShmUnmap: { file, delete in methodsOf(file)?.xShmUnmap?(inner(file!), delete) ?? SQLITE_OK },
        xFetch: { file, offset, count, out in
            out?.pointee = nil
            return methodsOf(file)?.xFetch?(inner(file!), offset, count, out) ?? SQLITE_OK
        },
        xUnfetch: { file, offset, pointer in methodsOf(file)?.xUnfetch?(inner(file!), offset, pointer) ?? SQLITE_OK }
    )
}
