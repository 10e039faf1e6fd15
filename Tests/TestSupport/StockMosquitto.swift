import Foundation
import IMProcess
#if canImport(Glibc)
import Glibc
#endif

/// A stock mosquitto (Debian package) on a free loopback port, with a TLS listener and a
/// password file, for tests that need a TLS peer nobody here wrote. Stop it with `stop()`.
public final class StockMosquitto: Sendable {
    public let port: UInt16
    private let process: ChildProcess
    private let log: String

    /// Starts mosquitto with `certificate`/`key`; with `clientCA`, clients must present a
    /// certificate it issued. `users` become the password file (user name: password).
    public init(
        directory: String, certificate: String, key: String, clientCA: String? = nil, users: [String: String]
    ) throws {
        let passwords = directory + "/passwords"
        try users.map { "\($0.key):\($0.value)\n" }.joined().write(toFile: passwords, atomically: true, encoding: .utf8)
        let hashed = try ChildProcess.run("/usr/bin/mosquitto_passwd", ["-U", passwords], timeout: .seconds(10))
        guard hashed.termination.status == 0 else {
            throw TestCertificateError("mosquitto_passwd: \(String(decoding: hashed.stderr, as: UTF8.self))")
        }
        port = try LoopbackPort.free()
        var config = """
            per_listener_settings false
            allow_anonymous false
            password_file \(passwords)
            listener \(port) 127.0.0.1
            certfile \(certificate)
            keyfile \(key)

            """
        if let clientCA { config += "cafile \(clientCA)\nrequire_certificate true\n" }
        let configFile = directory + "/mosquitto.conf"
        try config.write(toFile: configFile, atomically: true, encoding: .utf8)
        for file in [passwords, configFile] {
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        }
        log = directory + "/mosquitto.log"
        let logFD = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        defer { close(logFD) }
        process = try ChildProcess.spawn(
            "/usr/sbin/mosquitto", ["-c", configFile, "-v"], stdout: .descriptor(logFD), stderr: .descriptor(logFD))
        try waitUntilListening()
    }

    /// What mosquitto logged so far.
    public var output: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    /// Kills the broker: SIGKILL, since a child of the test runner may have SIGTERM blocked.
    public func stop() {
        process.signal(SIGKILL)
        _ = process.wait()
    }

    private func waitUntilListening() throws {
        if LoopbackPort.waitUntilAccepting(port) { return }
        stop()
        throw TestCertificateError("mosquitto did not listen on \(port) within 10 s: \(output)")
    }
}
