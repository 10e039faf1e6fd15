import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// Writes to one file held back by `JournalBatchingVFS` and sent in one system call:
/// contiguous bytes from `start`.
///
/// For a rollback journal, its records (and the header that opens a transaction); for a WAL,
/// a commit's frames; for a database file, pages that lie next to each other (a commit writes
/// its pages in order, and a growing table's pages were made one after the other). The VFS
/// decides when they must be in the file and calls `flush`.
///
/// A write that fails leaves the bytes here, to be tried again at the next flush, which fails
/// again while the disk does: the VFS flushes a database's pages before anything touches its
/// journal, so a transaction cannot be marked done (its journal's header zeroed) over pages
/// that never reached the file. One file object is used by one connection at a time, so the
/// state needs no lock.
final class GatheredWrites {
    enum Kind {
        case rollbackJournal
        case wal
        case database
    }

    let kind: Kind
    /// The file in the default VFS; nil once closed.
    var file: UnsafeMutablePointer<sqlite3_file>?
    private var bytes: [UInt8] = []
    private var start: Int64 = 0
    /// Writes gathered, the writes they went out in, and writes that went straight through (for tests).
    private(set) var gathered = 0
    private(set) var flushes = 0
    var direct = 0
    /// The most one write may carry: the default VFS writes at most 0x1ffff bytes a call
    /// and takes a shorter write for a full disk (`SQLITE_FULL`). What would pass it goes out
    /// first; one record is at most a page (64 KiB) and a few bytes.
    static let limit = 0x1ffff

    /// The header of a WAL transaction's last frame was gathered: its page ends the commit.
    private var commitFrameOpen = false
    /// A WAL's frames are headers of this many bytes, each followed by a page.
    static let frameHeaderSize = 24
    /// The first eight bytes of a rollback journal's header (SQLite's file format).
    static let journalMagic: [UInt8] = [0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]

    init(file: UnsafeMutablePointer<sqlite3_file>, kind: Kind) {
        self.file = file
        self.kind = kind
    }

    var isEmpty: Bool { bytes.isEmpty }

    /// Gathers a write; writes what waited first when this one does not follow it.
    func add(_ buffer: UnsafeRawPointer, count: Int, at offset: Int64) -> Int32 {
        if !bytes.isEmpty && (offset != start + Int64(bytes.count) || bytes.count + count > Self.limit) {
            let code = flush()
            guard code == SQLITE_OK else { return code }
        }
        if bytes.isEmpty { start = offset }
        // As typed bytes: a raw buffer would be appended a byte at a time.
        UnsafeRawBufferPointer(start: buffer, count: count).withMemoryRebound(to: UInt8.self) { bytes.append(contentsOf: $0) }
        gathered += 1
        guard kind == .wal else { return SQLITE_OK }
        let endsCommit = commitFrameOpen
        // Bytes 4-7 of a frame's header: the database's size in pages after a commit, 0 in other frames.
        commitFrameOpen = count == Self.frameHeaderSize && UnsafeRawBufferPointer(start: buffer + 4, count: 4).contains { $0 != 0 }
        return endsCommit ? flush() : SQLITE_OK
    }

    /// Whether a write at a rollback journal's start is the header opening a transaction with
    /// nothing waiting: it is gathered with the records that follow it. Until they go out, the
    /// journal's header on disk is the previous commit's zeroed one (or the file is empty), so
    /// the journal is not hot, and the database file has not been written for this
    /// transaction: a process killed meanwhile leaves both as they were. The zeroed header
    /// that ends a transaction has no magic and goes straight through.
    func opensTransaction(_ buffer: UnsafeRawPointer, count: Int, at offset: Int64) -> Bool {
        guard kind == .rollbackJournal, offset == 0, bytes.isEmpty, count >= Self.journalMagic.count else { return false }
        return Self.journalMagic.withUnsafeBytes { memcmp(buffer, $0.baseAddress!, $0.count) == 0 }
    }

    /// Writes what waits; SQLITE_OK when nothing does. On failure the bytes stay.
    func flush() -> Int32 {
        guard !bytes.isEmpty else { return SQLITE_OK }
        guard let file, let write = file.pointee.pMethods?.pointee.xWrite else { return SQLITE_IOERR }
        flushes += 1
        let code = bytes.withUnsafeBytes { write(file, $0.baseAddress, Int32($0.count), start) }
        guard code == SQLITE_OK else { return code }
        // A WAL's buffer is kept for the next commit (a server has a few); a session's
        // journal and file give their memory back, as thousands of them are open at once.
        bytes.removeAll(keepingCapacity: kind == .wal)
        return SQLITE_OK
    }
}
