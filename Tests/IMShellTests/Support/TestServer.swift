import Foundation
import IMServer
import IMTransport

/// An IM server in the test process, reached by imsh over the network like any remote server.
final class TestServer: Sendable {
    static let appKey = "remote-app"
    static let appSecret = "remote-app-secret"

    let server: EmbeddedServer
    private let directory: String

    private init(server: EmbeddedServer, directory: String) {
        self.server = server
        self.directory = directory
    }

    /// Starts a server; with `tls`, TLS listeners for MQTT and the API as well, on free ports.
    /// `queueQuota` is the app's per-user storage quota.
    static func start(tls: TLSServerIdentity? = nil, queueQuota: QueueQuota = QueueQuota()) async throws -> TestServer {
        let directory = NSTemporaryDirectory() + "imsh-shell-server-" + UUID().uuidString
        let app = AppSettings(appKey: appKey, appSecret: appSecret, clientControlsKickPolicy: true, queueQuota: queueQuota)
        var options = EmbeddedServer.Options(configuration: ServerConfiguration(apps: [app]), dataDirectory: directory)
        if let tls { (options.tls, options.mqttTLSPort, options.apiTLSPort) = (tls, 0, 0) }
        options.webSocketPort = 0
        let server = try await EmbeddedServer.start(options)
        return TestServer(server: server, directory: directory)
    }

    var mqttPort: UInt16 { server.mqttAddress.port }
    var apiPort: UInt16 { server.apiAddress.port }

    func token(for user: String) async throws -> String {
        try await server.backend.issueToken(appKey: Self.appKey, userID: user)
    }

    /// A profile on this server; `accounts` is the JSON text of the accounts object.
    func profile(accounts: String, secret: String = TestServer.appSecret, api: String? = nil) -> String {
        """
        {
          "appKey": "\(Self.appKey)",
          "appSecret": "\(secret)",
          "server": "mqtt://127.0.0.1:\(mqttPort)",
          "api": "\(api ?? "http://127.0.0.1:\(apiPort)")",
          "accounts": \(accounts)
        }
        """
    }

    func stop() async {
        await server.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
