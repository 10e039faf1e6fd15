import CSQLite

#if canImport(Glibc)
import Glibc
#endif

extension Database {
    /// Has SQLite's unix VFS open every file it opens (databases, journals, WALs, the
    /// directories it syncs) with `O_NOATIME` when the process owns the file, so that reading
    /// a page does not rewrite the file's inode.
    ///
    /// Why: on a `relatime` mount (Linux's default) a read after a write updates the access
    /// time, and a database is written at every commit, so nearly every transaction that reads
    /// (each session's whose cache was given back, `DatabaseQueue.CacheKeeping`) dirtied its
    /// inode and went through the file system's journal: about 2 % of imsh's CPU per message in the full-stack
    /// bench (BENCHMARKS.md, issue 17's tenth step). Nothing here reads access times. Files the
    /// process does not own (`EPERM`) open as before. Called once, before the first open.
    static func openFilesWithoutAccessTime() {
        guard noAccessTimeFlag != nil, let unix = sqlite3_vfs_find("unix"), unix.pointee.iVersion >= 3,
              let setSystemCall = unix.pointee.xSetSystemCall else { return }
        // SQLite calls its "open" as int (*)(const char *, int, int).
        let open: @convention(c) (UnsafePointer<CChar>?, Int32, Int32) -> Int32 = { path, flags, mode in
            guard let path else { errno = EFAULT; return -1 }
            let descriptor = Glibc.open(path, flags | (Database.noAccessTimeFlag ?? 0), mode_t(mode))
            guard descriptor < 0, errno == EPERM else { return descriptor }
            return Glibc.open(path, flags, mode_t(mode))
        }
        _ = setSystemCall(unix, "open", unsafeBitCast(open, to: sqlite3_syscall_ptr.self))
    }

    /// `O_NOATIME`, which the Glibc module (built without `_GNU_SOURCE`) does not export: its
    /// value on x86-64 and arm64; nil elsewhere, where it differs and files open as before.
    static var noAccessTimeFlag: Int32? {
        #if arch(x86_64) || arch(arm64)
        0o1_000_000
        #else
        nil
        #endif
    }
}
