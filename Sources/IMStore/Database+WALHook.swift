import CSQLite

extension Database {
    /// Calls `hook` after each commit of this connection with the pages now in the WAL file,
    /// and turns off the checkpoints SQLite would otherwise run inside that commit.
    ///
    /// A checkpoint syncs the WAL and the database file; a connection that must not block
    /// (one used on an event loop) hands that to another connection, off its thread, when
    /// `hook` says the WAL has grown.
    public func onWALCommit(_ hook: @escaping (Int) -> Void) throws(DatabaseError) {
        let handle = try connection(for: nil)
        let box = WALHookBox(hook)
        walHook = box
        sqlite3_wal_hook(handle, { context, _, _, pages in
            guard let context else { return SQLITE_OK }
            Unmanaged<WALHookBox>.fromOpaque(context).takeUnretainedValue().hook(Int(pages))
            return SQLITE_OK
        }, Unmanaged.passUnretained(box).toOpaque())
    }
}

/// The closure behind `onWALCommit`, kept alive by the database while SQLite holds a pointer to it.
final class WALHookBox {
    let hook: (Int) -> Void
    init(_ hook: @escaping (Int) -> Void) { self.hook = hook }
}
