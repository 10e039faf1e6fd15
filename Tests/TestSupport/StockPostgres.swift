import Foundation
import IMProcess
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A stock PostgreSQL server (Debian package) of its own on a free loopback port, for tests of
/// code that stores in PostgreSQL: a fresh cluster in `directory`, trust authentication,
/// superuser `postgres`, UTF-8, C locale. Stop it with `stop()`; `kill()` and `restart()` stage outages.
///
/// The postmaster is this process's child. PostgreSQL refuses to run as root, so as root the
/// cluster belongs to the `postgres` user (the server runs as that user through setpriv) and
/// `directory` is made readable by it. Settings favour a fast start over durability.
public final class StockPostgres: Sendable {
    public let port: UInt16
    /// The superuser's URL for the `postgres` database.
    public var url: String { url(database: "postgres") }
    /// The running postmaster; nil once ended (its pid may then belong to another process).
    private let process: Mutex<ChildProcess?>
    /// The port, kept from other tests' servers while this one is down.
    private let hold = Mutex<LoopbackPortHold?>(nil)
    private let binDirectory: String
    private let home: String
    private let log: String

    /// Creates a cluster under `directory` and starts the server.
    public init(directory: String) throws {
        binDirectory = try Self.findBinDirectory()
        home = directory + "/postgres"
        log = home + "/server.log"
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory)
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        if getuid() == 0 {
            try FileManager.default.setAttributes([.ownerAccountName: "postgres"], ofItemAtPath: home)
        }
        try Self.check(ChildProcess.run("/bin/cp", ["-a", try Self.template.get(), home + "/data"], timeout: .seconds(30)), doing: "cp")
        // Another test's server can bind the chosen port first; this one then takes another port
        // rather than waiting for that one's: it would get it the moment that server stopped for
        // an outage, and that server's clients would log in here.
        var attempts = 0
        while true {
            let port = try LoopbackPort.free()
            let child = try Self.spawn(binDirectory: binDirectory, home: home, log: log, port: port)
            if Self.waitUntilReady(child, home: home, until: .now + .seconds(20)) {
                self.port = port
                process = Mutex(child)
                return
            }
            child.signal(SIGKILL)
            _ = child.wait()
            attempts += 1
            guard attempts < 5 else {
                let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                throw TestCertificateError("postgres did not start on \(attempts) ports: \(output)")
            }
        }
    }

    /// `init(directory:)` off the cooperative pool, as async tests should start a server: it
    /// blocks for up to a second (a copy, the postmaster's start), and a test process's pool has
    /// one thread per core, which parallel tests share.
    public static func start(directory: String) async throws -> StockPostgres {
        try await offPool { try StockPostgres(directory: directory) }
    }

    deinit { stop() }

    /// The superuser's URL for `database`.
    public func url(database: String) -> String { "postgres://postgres@127.0.0.1:\(port)/\(database)" }

    /// Creates database `name` and returns its URL.
    public func createDatabase(_ name: String) throws -> String {
        try Self.check(ChildProcess.run(binDirectory + "/createdb", [
            "-h", "127.0.0.1", "-p", String(port), "-U", "postgres", name], timeout: .seconds(30)), doing: "createdb")
        return url(database: name)
    }

    /// Immediate shutdown (SIGQUIT): the server ends at once, closing every connection, and
    /// recovers from its log at the next start. Waits until it has ended.
    public func stop() {
        end(with: SIGQUIT)
    }

    /// SIGKILLs the postmaster alone, as a crash would: its backends find it gone and end by
    /// themselves a moment later.
    public func kill() {
        end(with: SIGKILL)
    }

    /// Starts the server again after `stop()` or `kill()`, on the same port with the same data,
    /// and returns once it accepts connections. Tries again for a while when the new postmaster
    /// ends at once: after `kill()`, backends still attached to the old shared memory make it refuse.
    public func restart() throws {
        let deadline = ContinuousClock.now + .seconds(20)
        hold.withLock { $0?.release(); $0 = nil }
        while true {
            let child = try Self.spawn(binDirectory: binDirectory, home: home, log: log, port: port)
            if Self.waitUntilReady(child, home: home, until: deadline) {
                process.withLock { $0 = child }
                return
            }
            child.signal(SIGKILL)
            _ = child.wait()
            guard ContinuousClock.now < deadline else {
                throw TestCertificateError("postgres did not start on port \(port) within 20 s: \(output)")
            }
            usleep(100_000)
        }
    }

    /// What the server logged so far.
    public var output: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    private func end(with signal: Int32) {
        process.withLock { running in
            guard let child = running else { return }
            child.signal(signal)
            _ = child.wait()
            running = nil
            hold.withLock { $0 = LoopbackPortHold(port: port) }
        }
    }

    /// The postmaster of the cluster in `home` on `port`, started in a process group of its own,
    /// logging to `log`.
    private static func spawn(binDirectory: String, home: String, log: String, port: UInt16) throws -> ChildProcess {
        let logFD = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        defer { close(logFD) }
        let settings = [
            // fsync off is safe while the machine stays up; synchronous commits are kept, so a
            // commit survives stop() and kill() as the tests of "nothing acknowledged is lost" need.
            "listen_addresses=127.0.0.1", "fsync=off",
            "shared_buffers=16MB", "max_connections=200", "deadlock_timeout=100ms",
        ]
        return try ChildProcess.spawn("/usr/bin/env", asServerUser + [
            binDirectory + "/postgres", "-D", home + "/data", "-p", String(port), "-k", home,
        ] + settings.flatMap { ["-c", $0] }, directory: home, stdout: .descriptor(logFD), stderr: .descriptor(logFD), ownGroup: true)
    }

    /// Waits until postmaster.pid says `child` is ready for connections; false if it ended or time ran out.
    private static func waitUntilReady(_ child: ChildProcess, home: String, until deadline: ContinuousClock.Instant) -> Bool {
        while ContinuousClock.now < deadline {
            let lines = ((try? String(contentsOfFile: home + "/data/postmaster.pid", encoding: .utf8)) ?? "")
                .split(separator: "\n", omittingEmptySubsequences: false)
            // Line 1 is the postmaster's pid, line 8 its status (pg_ctl -w reads the same).
            if lines.count >= 8, lines[0] == String(child.pid), lines[7].trimmingCharacters(in: .whitespaces) == "ready" {
                return true
            }
            var info = siginfo_t()
            if waitid(P_PID, id_t(child.pid), &info, WEXITED | WNOWAIT | WNOHANG) == 0, info._sifields._sigchld.si_pid != 0 {
                return false
            }
            usleep(20_000)
        }
        return false
    }

    /// A cluster made once per test process (its data directory) and copied for each server:
    /// initdb takes a second of CPU, a copy a tenth of that. Removed when the process exits.
    private static let template: Result<String, TestCertificateError> = {
        var template = Array((NSTemporaryDirectory() + "imsh-pg-template-XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            return .failure(TestCertificateError("mkdtemp failed: errno \(errno)"))
        }
        let directory = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        templateDirectory.withLock { $0 = directory }
        atexit {
            if let directory = StockPostgres.templateDirectory.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: directory) }
        }
        let home = directory + "/postgres"
        return Result {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory)
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            if getuid() == 0 {
                try FileManager.default.setAttributes([.ownerAccountName: "postgres"], ofItemAtPath: home)
            }
            try check(ChildProcess.run("/usr/bin/env", asServerUser + [
                try findBinDirectory() + "/initdb", "-D", home + "/data", "-A", "trust", "-U", "postgres", "-E", "UTF8",
                "--locale=C", "--no-sync", "--no-instructions"], directory: home, timeout: .seconds(60)), doing: "initdb")
            return home + "/data"
        }.mapError { $0 as? TestCertificateError ?? TestCertificateError("initdb: \($0)") }
    }()
    private static let templateDirectory = Mutex<String?>(nil)

    /// The prefix that runs a command as the `postgres` user when we are root: setpriv, which
    /// execs it (the pid stays the server's), unlike runuser, which forks.
    private static var asServerUser: [String] {
        getuid() == 0 ? ["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", "--"] : []
    }

    /// The newest installed PostgreSQL's bin directory (/usr/lib/postgresql/VERSION/bin).
    private static func findBinDirectory() throws -> String {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
            .compactMap(Int.init)
            .filter { FileManager.default.isExecutableFile(atPath: "\(root)/\($0)/bin/postgres") }
        guard let newest = versions.max() else {
            throw TestCertificateError("PostgreSQL is not installed (no \(root)/*/bin/postgres): run scripts/bootstrap")
        }
        return "\(root)/\(newest)/bin"
    }

    private static func check(_ output: ChildProcess.Output, doing what: String) throws {
        guard output.termination.status == 0 else {
            throw TestCertificateError("\(what): \(String(decoding: output.stderr + output.stdout, as: UTF8.self))")
        }
    }
}
