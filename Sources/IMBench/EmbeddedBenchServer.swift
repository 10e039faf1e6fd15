import IMProtocol
import IMServer

/// The IM server in this process, on 127.0.0.1 with a free port kept across restarts.
actor EmbeddedBenchServer: BenchServer {
    let appKey: String
    let servers: [ServerAddress]
    let placement = ServerPlacement.inProcess
    private let options: EmbeddedServer.Options
    private var server: EmbeddedServer?

    private init(server: EmbeddedServer, options: EmbeddedServer.Options, appKey: String) {
        self.server = server
        self.appKey = appKey
        self.options = options
        servers = [ServerAddress(host: server.mqttAddress.host, port: server.mqttAddress.port)]
    }

    /// Starts the server with `app` (the development app by default), its store in `dataDirectory`.
    static func start(dataDirectory: String, app: AppSettings = .development) async throws(BenchError) -> EmbeddedBenchServer {
        var options = EmbeddedServer.Options(configuration: ServerConfiguration(apps: [app]), dataDirectory: dataDirectory)
        let server = try await start(options)
        options.mqttPort = server.mqttAddress.port
        return EmbeddedBenchServer(server: server, options: options, appKey: app.appKey)
    }

    private static func start(_ options: EmbeddedServer.Options) async throws(BenchError) -> EmbeddedServer {
        do {
            return try await EmbeddedServer.start(options)
        } catch {
            throw BenchError("the embedded server cannot start (data in \(options.dataDirectory)): \(error)")
        }
    }

    func tokenIssuer() throws(BenchError) -> TokenIssuer {
        guard let server else { throw BenchError("the embedded server is down") }
        return .backend(server.backend, appKey: appKey)
    }

    func takeDown() async {
        await server.take()?.stop()
    }

    func bringBack() async throws(BenchError) {
        guard server == nil else { return }
        server = try await Self.start(options)
    }

    func shutdown() async {
        await takeDown()
    }
}

extension Optional {
    /// Returns the value and leaves nil behind.
    mutating func take() -> Wrapped? {
        defer { self = nil }
        return self
    }
}
