import IMEncoding
import IMProfiles
import IMProtocol
import IMServer

/// The one in-process IM server that profiles with `"server": "embedded"` share, started on
/// first use on 127.0.0.1 with free ports, holding those profiles' apps.
actor EmbeddedServerHost {
    /// The apps the server holds, one per app key of the embedded profiles.
    let apps: [AppSettings]
    /// Remarks about the apps, such as two profiles sharing an app key.
    let notes: [String]
    let dataDirectory: String
    /// Some embedded profile has a `tls` object: the server also listens for MQTT over TLS.
    let servesTLS: Bool
    private var starting: Task<EmbeddedServer, any Error>?
    private var stopped = false
    /// `server stop` or `server kill` ended it; `server start` brings it back.
    private var isDown = false
    /// The ports of the first server, which a server started again takes again.
    private var ports: Ports?
    /// The plain MQTT addresses the server had before `server move`, the first one first.
    private var formerAddresses: [ServerAddress] = []

    init(profiles: [Profile], dataDirectory: String) {
        var apps: [AppSettings] = []
        var owners: [String: String] = [:]
        var notes: [String] = []
        for profile in profiles where profile.server == .embedded {
            if let owner = owners[profile.appKey] {
                notes.append("profile \(profile.name) shares app key \(profile.appKey) with profile \(owner) on the embedded server; \(owner)'s appSecret applies")
                continue
            }
            owners[profile.appKey] = profile.name
            // Without a secret in the profile, the app gets one for this run: imsh still signs
            // its own API calls with it, and literal tokens of the profile cannot be valid anyway.
            let secret = profile.appSecret?.value ?? Self.randomSecret()
            apps.append(AppSettings(appKey: profile.appKey, appSecret: secret, clientControlsKickPolicy: true))
        }
        self.apps = apps
        self.notes = notes
        self.dataDirectory = dataDirectory
        self.servesTLS = profiles.contains { $0.server == .embedded && $0.tls != nil }
    }

    /// The app secret the server holds for `appKey`.
    nonisolated func secret(forAppKey appKey: String) -> Secret? {
        apps.first { $0.appKey == appKey }.map { Secret($0.appSecret) }
    }

    /// The running server, started if needed.
    func running() async throws(ShellError) -> EmbeddedServer {
        guard !stopped else { throw ShellError("the embedded server has stopped") }
        guard !isDown else { throw ShellError("the embedded server is stopped ('server start' starts it again)") }
        let task: Task<EmbeddedServer, any Error>
        if let starting {
            task = starting
        } else {
            let ports = self.ports ?? Ports()
            var options = EmbeddedServer.Options(
                configuration: ServerConfiguration(apps: apps), mqttPort: ports.mqtt, apiPort: ports.api, dataDirectory: dataDirectory)
            let servesTLS = self.servesTLS, directory = dataDirectory
            // Web-platform accounts reach it over WebSocket, as browsers must.
            options.webSocketPort = ports.webSocket
            task = Task {
                if servesTLS {
                    options.tls = try Self.developmentIdentity(dataDirectory: directory)
                    options.mqttTLSPort = ports.mqttTLS
                    options.secureWebSocketPort = ports.secureWebSocket
                }
                return try await EmbeddedServer.start(options)
            }
            starting = task
        }
        do {
            let server = try await task.value
            if ports == nil { ports = Ports(server) }
            return server
        } catch {
            starting = nil
            throw ShellError("the embedded server cannot start (data in \(dataDirectory)): \(error)")
        }
    }

    /// Where a web-platform account of an embedded profile connects: the WebSocket listener,
    /// over TLS (`wss://`) when the profile uses TLS.
    func webServers(tls: Bool) async throws(ShellError) -> [ServerAddress] {
        let ports = try await currentPorts()
        let path = ServerAddress.defaultWebSocketPath
        if tls, ports.secureWebSocket != 0 { return [ServerAddress(host: Self.host, port: ports.secureWebSocket, tls: true, webSocketPath: path)] }
        guard ports.webSocket != 0 else { return [] }
        return [ServerAddress(host: Self.host, port: ports.webSocket, webSocketPath: path)]
    }

    /// Where an MQTT (not web) account of an embedded profile connects: over TLS when the
    /// profile uses TLS; after a `server move`, the addresses it had come first, as a server
    /// list naming servers that have gone.
    func mqttServers(tls: Bool) async throws(ShellError) -> [ServerAddress] {
        let ports = try await currentPorts()
        if tls, ports.mqttTLS != 0 { return [ServerAddress(host: Self.host, port: ports.mqttTLS, tls: true)] }
        return formerAddresses + [ServerAddress(host: Self.host, port: ports.mqtt)]
    }

    /// The server's ports: those it will take again while `server stop` has it down (a connect
    /// then keeps trying there), else the running server's, started if need be.
    private func currentPorts() async throws(ShellError) -> Ports {
        if isDown, let ports { return ports }
        return Ports(try await running())
    }

    /// Where the server listens: only on loopback.
    static let host = "127.0.0.1"

    /// `server move`: the plain MQTT listener on a new port, every client sent there; returns
    /// the new address once they have left the old one. Like `server stop`, it refuses when the
    /// server is not running: it does not start one to move it.
    func move() async throws(ShellError) -> ServerAddress {
        let server = try await started(whenDown: "the embedded server is stopped ('server start' starts it again)")
        let old = ServerAddress(host: server.mqttAddress.host, port: server.mqttAddress.port)
        let new: ServerAddress
        do {
            let address = try await server.moveListener()
            new = ServerAddress(host: address.host, port: address.port)
        } catch {
            throw ShellError("server move: cannot open a new MQTT listener: \(error)")
        }
        formerAddresses.append(old)
        ports?.mqtt = new.port
        return new
    }

    /// Stops the server if it ever started; later `running()` calls fail.
    func stop() async {
        stopped = true
        guard let task = starting.take() else { return }
        if let server = try? await task.value { await server.stop() }
    }

    /// `server stop` (gracefully) or `server kill` (as a crash): ends the running server,
    /// keeping its store and its ports for `resume()`; until then connections are refused.
    func interrupt(crash: Bool) async throws(ShellError) {
        let server = try await started(whenDown: "the embedded server is stopped already")
        starting = nil
        isDown = true
        if crash { await server.kill() } else { await server.stop() }
    }

    /// The server that runs now, for the steps that act on it (`server stop`, `kill`, `move`):
    /// unlike `running()` it starts none, and refuses, saying why, when there is none; `whenDown`
    /// is the refusal while `server stop` or `kill` has it down.
    private func started(whenDown: String) async throws(ShellError) -> EmbeddedServer {
        guard !stopped else { throw ShellError("the embedded server has stopped") }
        guard !isDown else { throw ShellError(whenDown) }
        guard let task = starting, let server = try? await task.value else {
            throw ShellError("the embedded server is not running yet: it starts with the first connect (or server API call) of an embedded profile")
        }
        return server
    }

    /// `server start`: the server again, on the ports it had, with the store it kept.
    func resume() async throws(ShellError) -> EmbeddedServer {
        guard isDown else { throw ShellError("the embedded server is running already") }
        isDown = false
        return try await running()
    }

    private static func randomSecret() -> String {
        (try? Hex.encode(Crypto.randomBytes(16))) ?? "imsh-embedded-\(WallClock.milliseconds())"
    }
}

extension EmbeddedServerHost {
    /// The ports a server listens on; 0 picks a free one (the first start).
    struct Ports: Sendable {
        var mqtt: UInt16 = 0
        var api: UInt16 = 0
        var webSocket: UInt16 = 0
        var mqttTLS: UInt16 = 0
        var secureWebSocket: UInt16 = 0

        init() {}

        init(_ server: EmbeddedServer) {
            mqtt = server.mqttAddress.port
            api = server.apiAddress.port
            webSocket = server.webSocketAddress?.port ?? 0
            mqttTLS = server.mqttTLSAddress?.port ?? 0
            secureWebSocket = server.secureWebSocketAddress?.port ?? 0
        }
    }
}

extension Optional {
    /// Returns the value and leaves nil behind.
    mutating func take() -> Wrapped? {
        defer { self = nil }
        return self
    }
}
