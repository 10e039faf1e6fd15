import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// A SQLite VFS over the default one that gathers a rollback journal's records, or a WAL's
/// frames, and writes them with one system call, just before they have to be in the file;
/// under a rollback journal, a database's pages that lie side by side likewise.
///
/// Why: SQLite writes each page it journals as three writes (page number, page, checksum),
/// so a session's commit of three pages cost fourteen pwrite(2)s, two commits a message
/// (BENCHMARKS.md, issue 17's sixth step). Gathered, the same commit costs five. A WAL frame is
/// two writes (its header, the page): the server's commit of five pages, ten.
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
/// A database's pages under a rollback journal gather while they follow each other in the
/// file (a commit writes its pages in order) and go out before anything else touches the
/// file (a read, size, truncation, sync, lock or close) and before anything touches its
/// journal, above all the zeroed header that ends the transaction: until that header is
/// written the journal stays hot, so a process killed while pages wait leaves a file that
/// rolls back whole, as when SQLite is killed between its own page writes. Pages written
/// under a WAL (a checkpoint's) go straight through.
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
    /// The name to open a database with (`sqlite3_open_v2`'s last argument).
    static let name = "imsh-journal-batching"

    /// Whether the VFS is registered; the first call registers it.
    static var isAvailable: Bool { registration != nil }

    /// The default VFS this one wraps, and this one; nil when SQLite has no default VFS.
    nonisolated(unsafe) private static let registration: (base: UnsafeMutablePointer<sqlite3_vfs>,
                                                          methods: UnsafeMutablePointer<sqlite3_io_methods>)? = {
        // Finding a VFS initializes SQLite: the process's settings go first.
        Database.configureProcess()
        guard let base = sqlite3_vfs_find(nil) else { return nil }
        let vfs = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
        vfs.initialize(to: base.pointee)
        vfs.pointee.pNext = nil
        vfs.pointee.zName = UnsafePointer(strdup(name))
        vfs.pointee.szOsFile = Int32(headerSize) + base.pointee.szOsFile
        vfs.pointee.xOpen = open
        let methods = UnsafeMutablePointer<sqlite3_io_methods>.allocate(capacity: 1)
        methods.initialize(to: Self.methods)
        guard sqlite3_vfs_register(vfs, 0) == SQLITE_OK else { return nil }
        return (base, methods)
    }()

    // MARK: The file object: SQLite's header, then ours, then the default VFS's file.

    /// `pMethods`, then a pointer to the `FileState`.
    private static let headerSize = 16

    private static func inner(_ file: UnsafeMutablePointer<sqlite3_file>) -> UnsafeMutablePointer<sqlite3_file> {
        (UnsafeMutableRawPointer(file) + headerSize).assumingMemoryBound(to: sqlite3_file.self)
    }

    private static func stateSlot(_ file: UnsafeMutablePointer<sqlite3_file>) -> UnsafeMutablePointer<UnsafeMutableRawPointer?> {
        (UnsafeMutableRawPointer(file) + 8).assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
    }

    private static func state(_ file: UnsafeMutablePointer<sqlite3_file>?) -> FileState? {
        guard let file, file.pointee.pMethods == UnsafePointer(registration?.methods), let raw = stateSlot(file).pointee else {
            return nil
        }
        return Unmanaged<FileState>.fromOpaque(raw).takeUnretainedValue()
    }

    /// What this VFS knows of one open file.
    private final class FileState {
        /// What waits to be written: a rollback journal's or WAL's records, a database's pages;
        /// nil for other files (temporary ones), which pass through.
        let gathered: GatheredWrites?
        /// The journal or WAL of this database file, when it has one open.
        var journal: GatheredWrites?
        /// The pages of this journal's (or WAL's) database file.
        var database: GatheredWrites?

        init(gathered: GatheredWrites?) { self.gathered = gathered }

        var isJournal: Bool { gathered.map { $0.kind != .database } ?? false }
    }

    /// The records gathered, the writes they went out in and the writes that went straight
    /// through, for the journal file object `journal` (`SQLITE_FCNTL_JOURNAL_POINTER`), or the
    /// pages for a database's file object; nil for a file of another VFS.
    static func counts(of file: UnsafeMutablePointer<sqlite3_file>?) -> (gathered: Int, written: Int, direct: Int)? {
        guard let writes = state(file)?.gathered else { return nil }
        return (writes.gathered, writes.flushes, writes.direct)
    }

    // MARK: The VFS

    private static let open: @convention(c) (
        UnsafeMutablePointer<sqlite3_vfs>?, sqlite3_filename?, UnsafeMutablePointer<sqlite3_file>?, Int32, UnsafeMutablePointer<Int32>?
    ) -> Int32 = { _, name, file, flags, outFlags in
        guard let file, let (base, methods) = registration, let baseOpen = base.pointee.xOpen else { return SQLITE_MISUSE }
        file.pointee.pMethods = nil
        stateSlot(file).pointee = nil
        let inner = inner(file)
        let code = baseOpen(base, name, inner, flags, outFlags)
        guard code == SQLITE_OK else { return code }
        let kind: GatheredWrites.Kind? = flags & SQLITE_OPEN_MAIN_JOURNAL != 0 ? .rollbackJournal
            : flags & SQLITE_OPEN_WAL != 0 ? .wal : flags & SQLITE_OPEN_MAIN_DB != 0 ? .database : nil
        let state = FileState(gathered: kind.map { GatheredWrites(file: inner, kind: $0) })
        stateSlot(file).pointee = Unmanaged.passRetained(state).toOpaque()
        file.pointee.pMethods = UnsafePointer(methods)
        if state.isJournal, let name, let database = Self.state(sqlite3_database_file_object(name)) {
            database.journal = state.gathered
            state.database = database.gathered
        }
        return SQLITE_OK
    }

    /// Before a database file's write, truncation, sync or close: its journal's records go
    /// first (the journal must precede the pages it protects).
    private static func flushJournal(of state: FileState?) -> Int32 {
        guard let state, !state.isJournal else { return SQLITE_OK }
        return state.journal?.flush() ?? SQLITE_OK
    }

    /// Before anything else touches a file: what it gathered goes out, and for a journal, its
    /// database's pages first, so that the journal's header cannot end a transaction (or a
    /// WAL restart over frames) before the pages are in the database file.
    private static func flushAll(_ state: FileState?) -> Int32 {
        guard let state else { return SQLITE_OK }
        if state.isJournal, let code = state.database?.flush(), code != SQLITE_OK { return code }
        return state.gathered?.flush() ?? SQLITE_OK
    }

    /// A database's page gathered, or nil to write it now: pages gather only under a rollback
    /// journal (a WAL's checkpoint writes pages without one, and publishes them in the WAL's
    /// index, where a failed write could not be held back).
    private static func gatherPage(_ state: FileState?, _ buffer: UnsafeRawPointer, _ count: Int32, _ offset: Int64) -> Int32? {
        guard let state, let pages = state.gathered, pages.kind == .database, state.journal?.kind == .rollbackJournal else { return nil }
        return pages.add(buffer, count: Int(count), at: offset)
    }

    private static func methodsOf(_ file: UnsafeMutablePointer<sqlite3_file>?) -> sqlite3_io_methods? {
        guard let file else { return nil }
        return inner(file).pointee.pMethods?.pointee
    }

    /// `code` unless it failed, then `then`'s.
    private static func after(_ code: Int32, _ then: () -> Int32) -> Int32 {
        code == SQLITE_OK ? then() : code
    }

    private static let methods = sqlite3_io_methods(
        iVersion: 3,
        xClose: { file in
            guard let file else { return SQLITE_MISUSE }
            let state = state(file)
            var flushed = flushJournal(of: state)
            if flushed == SQLITE_OK { flushed = flushAll(state) }
            if let raw = stateSlot(file).pointee {
                let state = Unmanaged<FileState>.fromOpaque(raw).takeRetainedValue()
                state.gathered?.file = nil
                stateSlot(file).pointee = nil
            }
            let code = methodsOf(file)?.xClose?(inner(file)) ?? SQLITE_OK
            file.pointee.pMethods = nil
            return flushed == SQLITE_OK ? code : flushed
        },
        xRead: { file, buffer, count, offset in
            after(flushAll(state(file))) { methodsOf(file)?.xRead?(inner(file!), buffer, count, offset) ?? SQLITE_IOERR }
        },
        xWrite: { file, buffer, count, offset in
            guard let file, let buffer else { return SQLITE_MISUSE }
            let state = state(file)
            if let gathered = state?.gathered, state?.isJournal == true {
                let code = state?.database?.flush() ?? SQLITE_OK
                guard code == SQLITE_OK else { return code }
                if offset > 0 || gathered.opensTransaction(buffer, count: Int(count), at: offset) {
                    return gathered.add(buffer, count: Int(count), at: offset)
                }
                let flushed = gathered.flush()
                guard flushed == SQLITE_OK else { return flushed }
                gathered.direct += 1
                return methodsOf(file)?.xWrite?(inner(file), buffer, count, offset) ?? SQLITE_IOERR
            }
            let code = flushJournal(of: state)
            guard code == SQLITE_OK else { return code }
            if let gathered = gatherPage(state, buffer, count, offset) { return gathered }
            return after(flushAll(state)) { methodsOf(file)?.xWrite?(inner(file), buffer, count, offset) ?? SQLITE_IOERR }
        },
        xTruncate: { file, size in
            let state = state(file)
            return after(after(flushJournal(of: state)) { flushAll(state) }) { methodsOf(file)?.xTruncate?(inner(file!), size) ?? SQLITE_IOERR }
        },
        xSync: { file, flags in
            let state = state(file)
            return after(after(flushJournal(of: state)) { flushAll(state) }) { methodsOf(file)?.xSync?(inner(file!), flags) ?? SQLITE_IOERR }
        },
        xFileSize: { file, size in
            after(flushAll(state(file))) { methodsOf(file)?.xFileSize?(inner(file!), size) ?? SQLITE_IOERR }
        },
        // Another connection may read the file once a lock changes hands.
        xLock: { file, level in after(flushAll(state(file))) { methodsOf(file)?.xLock?(inner(file!), level) ?? SQLITE_IOERR } },
        xUnlock: { file, level in after(flushAll(state(file))) { methodsOf(file)?.xUnlock?(inner(file!), level) ?? SQLITE_IOERR } },
        xCheckReservedLock: { file, out in methodsOf(file)?.xCheckReservedLock?(inner(file!), out) ?? SQLITE_IOERR },
        xFileControl: { file, op, argument in methodsOf(file)?.xFileControl?(inner(file!), op, argument) ?? SQLITE_NOTFOUND },
        xSectorSize: { file in methodsOf(file)?.xSectorSize?(inner(file!)) ?? 4096 },
        xDeviceCharacteristics: { file in methodsOf(file)?.xDeviceCharacteristics?(inner(file!)) ?? 0 },
        xShmMap: { file, page, size, extend, out in methodsOf(file)?.xShmMap?(inner(file!), page, size, extend, out) ?? SQLITE_IOERR },
        // A commit is published in the WAL index between the barrier and the write lock's
        // release. Its frames went out with its last one already; should a SQLite to come write
        // its frames otherwise, they go out here, before anyone can see the commit.
        xShmLock: { file, offset, count, flags in
            after(flushJournal(of: state(file))) { methodsOf(file)?.xShmLock?(inner(file!), offset, count, flags) ?? SQLITE_IOERR }
        },
        xShmBarrier: { file in
            _ = flushJournal(of: state(file))
            methodsOf(file)?.xShmBarrier?(inner(file!))
        },
        xShmUnmap: { file, delete in methodsOf(file)?.xShmUnmap?(inner(file!), delete) ?? SQLITE_OK },
        xFetch: { file, offset, count, out in
            out?.pointee = nil
            return after(flushAll(state(file))) { methodsOf(file)?.xFetch?(inner(file!), offset, count, out) ?? SQLITE_OK }
        },
        xUnfetch: { file, offset, pointer in methodsOf(file)?.xUnfetch?(inner(file!), offset, pointer) ?? SQLITE_OK }
    )
}
