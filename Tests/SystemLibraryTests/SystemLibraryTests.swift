import CCrypto
import CEdit
import CSQLite
import IMStore
import Testing

/// The Debian libraries link and behave as the modules above them expect.
struct SystemLibraryTests {
    @Test func sqliteIsThreadSafeAndRecent() {
        #expect(sqlite3_libversion_number() >= 3_035_000)
        #expect(sqlite3_threadsafe() != 0)
    }

    @Test func sqliteOpensAnInMemoryDatabase() {
        // imsh's settings first, as for any SQLite opened beside `Database` in one process.
        Database.configureProcess()
        var db: OpaquePointer?
        #expect(sqlite3_open(":memory:", &db) == SQLITE_OK)
        #expect(sqlite3_exec(db, "CREATE TABLE t(x); INSERT INTO t VALUES (1);", nil, nil, nil) == SQLITE_OK)
        #expect(sqlite3_close(db) == SQLITE_OK)
    }

    @Test func sha1OfABCMatchesFIPS180() {
        var digest = [UInt8](repeating: 0, count: Int(SHA_DIGEST_LENGTH))
        let input = Array("abc".utf8)
        _ = SHA1(input, input.count, &digest)
        let hex = digest.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
        #expect(hex == "a9993e364706816aba3e25717850c26c9cd0d89d")
    }

    @Test func hmacSHA256MatchesRFC4231Case2() {
        let key = Array("Jefe".utf8)
        let data = Array("what do ya want for nothing?".utf8)
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        _ = HMAC(EVP_sha256(), key, Int32(key.count), data, data.count, &out, &length)
        let hex = out.prefix(Int(length)).map { String($0, radix: 16).leftPadded(to: 2) }.joined()
        #expect(hex == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func libeditHistoryKeepsUniqueEntriesThroughTheShim() {
        guard let history = history_init() else {
            Issue.record("history_init failed")
            return
        }
        defer { history_end(history) }
        var event = HistEvent()
        #expect(imsh_history_set_size(history, &event, 100) == 0)
        #expect(imsh_history_set_unique(history, &event, 1) == 0)
        _ = imsh_history_enter(history, &event, "status")
        _ = imsh_history_enter(history, &event, "status")
        _ = imsh_history_enter(history, &event, "connect all")
        #expect(imsh_history_get_size(history, &event) == 0)
        #expect(event.num == 2)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
