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
        let task: Task<EmbeddedServer, any Error>
        if let starting {
            task = starting
        } else {
            var options = EmbeddedServer.Options(
                configuration: ServerConfiguration(apps: apps), mqttPort: 0, apiPort: 0, dataDirectory: dataDirectory)
            let servesTLS = self.servesTLS, directory = dataDirectory
            // Web-platform accounts reach it over WebSocket, as browsers must.
            options.webSocketPort = 0
            task = Task {
                if servesTLS {
                    options.tls = try Self.developmentIdentity(dataDirectory: directory)
                    options.mqttTLSPort = 0
                    options.secureWebSocketPort = 0
                }
                return try await EmbeddedServer.start(options)
            }
            starting = task
        }
        do {
            return try await task.value
        } catch {
            starting = nil
            throw ShellError("the embedded server cannot start (data in \(dataDirectory)): \(error)")
        }
    }

    /// Where a web-platform account of an embedded profile connects: the WebSocket listener,
    /// over TLS (`wss://`) when the profile uses TLS.
    func webServers(tls: Bool) async throws(ShellError) -> [ServerAddress] {
        let running = try await running()
        if tls, let secure = running.secureWebSocketAddress {
            return [ServerAddress(host: secure.host, port: secure.port, tls: true, webSocketPath: ServerAddress.defaultWebSocketPath)]
        }
        guard let plain = running.webSocketAddress else { return [] }
        return [ServerAddress(host: plain.host, port: plain.port, webSocketPath: ServerAddress.defaultWebSocketPath)]
    }

    /// Stops the server if it ever started; later `running()` calls fail.
    func stop() async {
        stopped = true
        guard let task = starting.take() else { return }
        if let server = try? await task.value { await server.stop() }
    }

    private static func randomSecret() -> String {
        (try? Hex.encode(Crypto.randomBytes(16))) ?? "imsh-embedded-\(WallClock.milliseconds())"
    }
}

extension Optional {
    /// Returns the value and leaves nil behind.
    mutating func take() -> Wrapped? {
        defer { self = nil }
        return self
    }
}
