import Foundation
import IMProcess
import Testing
import TestSupport

/// `imserver --data DIR` checks DIR as imsh checks its own: others may not write to it, nobody
/// else may own it, and nothing in it is written through a symlink.
@Suite(.timeLimit(.minutes(1)))
struct ImserverDataDirectoryTests {
    /// Runs imserver on `data` and returns its exit status and standard error; a refused
    /// directory ends it at once, so it gets one second before it is called a success.
    func run(data: String) async throws -> (status: ChildProcess.Termination, errors: String) {
        let output = try await offPool {
            try ChildProcess.run(ImserverProcess.binary, ["--listen", "127.0.0.1:0", "--api", "127.0.0.1:0", "--data", data],
                                 timeout: .seconds(1))
        }
        return (output.termination, String(decoding: output.stderr, as: UTF8.self))
    }

    func mode(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & 0o777 : 0
    }

    @Test func aDataDirectoryOthersMayWriteIsRefusedWithTheFix() async throws {
        let directory = TemporaryDirectory()
        let data = directory.path + "/data"
        mkdir(data, 0o700)
        chmod(data, 0o757)
        let run = try await run(data: data)
        #expect(run.status == .exited(1))
        #expect(run.errors.contains("writable by others (mode 757); fix it with: chmod go-w \(data)"), "\(run.errors)")
        #expect(!FileManager.default.fileExists(atPath: data + "/server.sqlite"))
    }

    // Giving a directory to another user takes root (CI runs as root).
    @Test(.enabled(if: geteuid() == 0)) func aDataDirectoryOwnedByAnotherUserIsRefused() async throws {
        let directory = TemporaryDirectory()
        let data = directory.path + "/data"
        mkdir(data, 0o700)
        try #require(chown(data, 65534, getegid()) == 0)
        let run = try await run(data: data)
        #expect(run.status == .exited(1))
        #expect(run.errors.contains("the data directory \(data) is owned by another user (uid 65534)"), "\(run.errors)")
    }

    @Test func aSymlinkedDatabaseOrJournalIsNotFollowed() async throws {
        let directory = TemporaryDirectory()
        let victim = directory.path + "/victim"
        try Data("keep me\n".utf8).write(to: URL(fileURLWithPath: victim))
        for name in ["server.sqlite", "server.sqlite-wal"] {
            let data = directory.path + "/data-" + name
            mkdir(data, 0o700)
            symlink(victim, "\(data)/\(name)")
            let run = try await run(data: data)
            #expect(run.status == .exited(1))
            #expect(run.errors.contains("\(data)/\(name) is not a regular file"), "\(run.errors)")
            #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me\n")
        }
    }

    @Test func whatImserverCreatesIsPrivateWhateverTheUmask() async throws {
        let directory = TemporaryDirectory()
        let data = directory.path + "/new/data"
        let previous = umask(0o022)
        defer { umask(previous) }
        let server = try await ImserverProcess.start(dataDirectory: data)
        _ = try await server.stop(SIGTERM)
        #expect(mode(directory.path + "/new") == 0o700 && mode(data) == 0o700)
        let files = try FileManager.default.contentsOfDirectory(atPath: data)
        #expect(files.contains("server.sqlite"))
        for file in files { #expect(mode("\(data)/\(file)") == 0o600, "\(file)") }
    }
}
