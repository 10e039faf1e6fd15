import Foundation
import IMProcess
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A stock mosquitto (Debian package) on a free loopback port, with a password file, plaintext
/// or TLS, for tests that need a peer nobody here wrote. Stop it with `stop()`.
public final class StockMosquitto: Sendable {
    public let port: UInt16
    /// The `protocol websockets` listener (TLS too when the broker has a certificate), if asked for.
    public let webSocketPort: UInt16?
    /// The running broker; nil once ended (its pid may then belong to another process).
    private let process: Mutex<ChildProcess?>
    /// The ports, kept from other tests' peers while this broker is down.
    private let holds = Mutex<[LoopbackPortHold]>([])
    private let log: String
    private let configFile: String

    /// Starts mosquitto, over TLS with `certificate`/`key` (plaintext without them); with
    /// `clientCA`, clients must present a certificate it issued. `users` (user name: password)
    /// go to the password file, or with `refuseSubscriptions` to mosquitto's dynamic-security
    /// plugin, which refuses every SUBSCRIBE (SUBACK 0x87: an `acl_file` never refuses one)
    /// until `allowSubscriptions(of:)`. `settings` are more global lines (`max_packet_size 1000`).
    /// With `persistent`, sessions and queued messages are written to disk at every change, so
    /// they outlive `restart()` even after SIGKILL. With `webSocket`, a second listener speaks MQTT
    /// over WebSocket (Debian's mosquitto starts one only beside a plain MQTT listener).
    /// `directory` must be readable by the `mosquitto` user.
    public init(
        directory: String, certificate: String? = nil, key: String? = nil, clientCA: String? = nil,
        users: [String: String], refuseSubscriptions: Bool = false, persistent: Bool = false, settings: String = "",
        webSocket: Bool = false
    ) throws {
        var config = "per_listener_settings false\nallow_anonymous false\n\(settings)\n"
        if persistent { config += try Self.persistence(directory: directory + "/persistence") }
        var files: [String] = []
        if refuseSubscriptions {
            config += try Self.dynamicSecurity(directory: directory + "/dynsec", users: users)
        } else {
            let passwords = directory + "/passwords"
            try users.map { "\($0.key):\($0.value)\n" }.joined().write(toFile: passwords, atomically: true, encoding: .utf8)
            try Self.check(ChildProcess.run("/usr/bin/mosquitto_passwd", ["-U", passwords], timeout: .seconds(10)))
            files.append(passwords)
            config += "password_file \(passwords)\n"
        }
        log = directory + "/mosquitto.log"
        configFile = directory + "/mosquitto.conf"
        let started = try Self.start(config, files: files, log: log, configFile: configFile, webSocket: webSocket) { port, webSocketPort in
            var listeners = "listener \(port) 127.0.0.1\n"
            if let certificate, let key { listeners += "certfile \(certificate)\nkeyfile \(key)\n" }
            if let clientCA { listeners += "cafile \(clientCA)\nrequire_certificate true\n" }
            if let webSocketPort {
                listeners += "listener \(webSocketPort) 127.0.0.1\nprotocol websockets\n"
                if let certificate, let key { listeners += "certfile \(certificate)\nkeyfile \(key)\n" }
            }
            return listeners
        }
        (port, webSocketPort) = (started.port, started.webSocketPort)
        process = Mutex(Optional(started.process))
    }

    /// Starts mosquitto on free ports with `config` and the `listeners` lines for them, once more
    /// on other ports when another process took one between its choice and mosquitto's bind
    /// (tests start their peers side by side).
    private static func start(
        _ config: String, files: [String], log: String, configFile: String, webSocket: Bool,
        listeners: (UInt16, UInt16?) -> String
    ) throws -> (port: UInt16, webSocketPort: UInt16?, process: ChildProcess) {
        var attempt = 1
        while true {
            let port = try LoopbackPort.free()
            let webSocketPort = webSocket ? try LoopbackPort.free() : nil
            // mosquitto buffers what it logs to standard output; to a file it writes each line at once.
            _ = FileManager.default.createFile(atPath: log, contents: nil, attributes: [.posixPermissions: 0o644])
            try giveToBroker(log)
            try (config + listeners(port, webSocketPort) + "log_dest file \(log)\nlog_type all\n")
                .write(toFile: configFile, atomically: true, encoding: .utf8)
            for file in files + [configFile] {
                try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
            }
            let process = try spawn(configFile: configFile, log: log)
            if LoopbackPort.waitUntilAccepting(port), webSocketPort.map({ LoopbackPort.waitUntilAccepting($0) }) ?? true {
                return (port, webSocketPort, process)
            }
            process.signal(SIGKILL)
            _ = process.wait()
            let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            guard attempt < 3, output.contains("Unable to create") || output.contains("Address already in use") else {
                throw TestCertificateError("mosquitto did not listen on \(port) within 10 s: \(output)")
            }
            attempt += 1
        }
    }

    /// mosquitto on `configFile`, its output appended to `log`.
    private static func spawn(configFile: String, log: String) throws -> ChildProcess {
        let logFD = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        defer { close(logFD) }
        return try ChildProcess.spawn(
            "/usr/sbin/mosquitto", ["-c", configFile], stdout: .descriptor(logFD), stderr: .descriptor(logFD))
    }

    /// The config lines of a persistence folder owned by the `mosquitto` user, saved at every change.
    private static func persistence(directory: String) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try giveToBroker(directory)
        return "persistence true\npersistence_location \(directory)/\nautosave_on_changes true\nautosave_interval 1\n"
    }

    /// Makes `path` the broker's to write: started as root, mosquitto runs as the `mosquitto` user.
    private static func giveToBroker(_ path: String) throws {
        guard getuid() == 0 else { return }
        try FileManager.default.setAttributes([.ownerAccountName: "mosquitto"], ofItemAtPath: path)
    }

    /// Sends `signal` to the broker (SIGSTOP, SIGCONT).
    public func signal(_ number: Int32) {
        process.withLock { $0?.signal(number) }
    }

    /// Ends the broker with `signal` (SIGTERM, SIGKILL) and waits for it to be gone.
    /// The ports stay held (`LoopbackPortHold`) until `restart()`.
    public func end(with number: Int32) {
        process.withLock { running in
            guard let child = running else { return }
            child.signal(number)
            _ = child.wait()
            running = nil
            holds.withLock { $0 = ([port] + (webSocketPort.map { [$0] } ?? [])).compactMap { LoopbackPortHold(port: $0) } }
        }
    }

    /// Starts the broker again, on the same port and configuration, after `end(with:)`.
    public func restart() throws {
        holds.withLock { holds in
            holds.forEach { $0.release() }
            holds = []
        }
        try process.withLock { $0 = try Self.spawn(configFile: configFile, log: log) }
        try waitUntilListening()
    }

    /// What mosquitto logged so far.
    public var output: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

    /// The administrator of the dynamic-security plugin (`refuseSubscriptions`).
    static let administrator = (user: "dynsec-admin", password: "dynsec-admin-password")

    /// Lets `user` subscribe from now on, through the plugin's control topic (mosquitto_ctrl).
    public func allowSubscriptions(of user: String) throws {
        try Self.check(ChildProcess.run("/usr/bin/mosquitto_ctrl", [
            "-h", "127.0.0.1", "-p", String(port), "-u", Self.administrator.user, "-P", Self.administrator.password,
            "dynsec", "addClientRole", user, "subscriber"], timeout: .seconds(10)))
    }

    /// Writes the plugin's file (PBKDF2-SHA512 passwords, as mosquitto_ctrl would) in `directory`,
    /// owned by the `mosquitto` user, who rewrites it on every change; returns the config lines.
    private static func dynamicSecurity(directory: String, users: [String: String]) throws -> String {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let file = directory + "/dynamic-security.json"
        let script = """
            import base64, hashlib, json, os, sys
            users, admin, file = json.loads(sys.argv[1]), sys.argv[2:4], sys.argv[4]
            def client(name, password, roles):
                salt = os.urandom(12)
                digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, 101, 64)
                return {"username": name, "password": base64.b64encode(digest).decode(),
                        "salt": base64.b64encode(salt).decode(), "iterations": 101, "roles": [{"rolename": r} for r in roles]}
            control = "$CONTROL/dynamic-security/#"
            acl = lambda kind, topic: {"acltype": kind, "topic": topic, "priority": 0, "allow": True}
            json.dump({"defaultACLAccess": {"publishClientSend": True, "publishClientReceive": True,
                                            "subscribe": False, "unsubscribe": True},
                       "clients": [client(n, p, []) for n, p in users.items()] + [client(admin[0], admin[1], ["admin"])],
                       "groups": [],
                       "roles": [{"rolename": "admin", "acls": [acl("publishClientSend", control), acl("publishClientReceive", control),
                                                                acl("subscribePattern", control)]},
                                 {"rolename": "subscriber", "acls": [acl("subscribePattern", "#")]}]}, open(file, "w"))
            """
        let usersJSON = String(decoding: try JSONSerialization.data(withJSONObject: users), as: UTF8.self)
        try check(ChildProcess.run("/usr/bin/env", [
            "python3", "-c", script, usersJSON, administrator.user, administrator.password, file], timeout: .seconds(10)))
        for path in [directory, file] {
            try FileManager.default.setAttributes([.ownerAccountName: "mosquitto"], ofItemAtPath: path)
        }
        let plugin = try FileManager.default.contentsOfDirectory(atPath: "/usr/lib")
            .map { "/usr/lib/\($0)/mosquitto_dynamic_security.so" }
            .first { FileManager.default.fileExists(atPath: $0) }
        guard let plugin else { throw TestCertificateError("mosquitto's dynamic-security plugin is not installed") }
        return "plugin \(plugin)\nplugin_opt_config_file \(file)\n"
    }

    private static func check(_ output: ChildProcess.Output) throws {
        guard output.termination.status == 0 else {
            throw TestCertificateError("mosquitto setup: \(String(decoding: output.stderr, as: UTF8.self))")
        }
    }

    /// Kills the broker: SIGKILL, since a child of the test runner may have SIGTERM blocked.
    public func stop() {
        end(with: SIGKILL)
    }

    private func waitUntilListening() throws {
        if LoopbackPort.waitUntilAccepting(port), webSocketPort.map({ LoopbackPort.waitUntilAccepting($0) }) ?? true { return }
        stop()
        throw TestCertificateError("mosquitto did not listen on \(port) within 10 s: \(output)")
    }
}
