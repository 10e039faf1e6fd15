import Foundation
import IMHTTP
import IMJSON
import IMProtocol
import TestSupport

/// The `imserver` executable with a configuration file, for stock clients: two apps (the
/// test's, and one blocked), its MQTT port, and its server API called as an app server calls
/// it (signed requests), tokens included.
final class StockImserver: Sendable {
    static let appKey = "interop-app"
    static let secret = "interop-secret"
    static let blockedAppKey = "blocked-app"
    static let blockedSecret = "blocked-secret"

    let process: ImserverProcess
    let directory: TemporaryDirectory
    var port: UInt16 { process.mqttPort }
    let apiPort: UInt16

    private init(process: ImserverProcess, directory: TemporaryDirectory, apiPort: UInt16) {
        self.process = process
        self.directory = directory
        self.apiPort = apiPort
    }

    /// Starts imserver with `limits` (JSON members of the configuration's `limits`).
    static func start(limits: String = #""maxPacketSize": 4096"#) async throws -> StockImserver {
        let directory = TemporaryDirectory()
        let config = directory.path + "/imserver.json"
        try """
            {"apps": [{"appKey": "\(appKey)", "appSecret": "\(secret)", "clientKickPolicy": true},
                      {"appKey": "\(blockedAppKey)", "appSecret": "\(blockedSecret)", "blocked": true}],
             "limits": {\(limits)}}
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let process = try await ImserverProcess.start(dataDirectory: directory.path + "/data", extra: ["--config", config])
        guard let api = process.listening["api"]?.split(separator: ":").last.flatMap({ UInt16($0) }) else {
            throw TestFailure("imserver did not say where its API listens: \(process.listening)")
        }
        return StockImserver(process: process, directory: directory, apiPort: api)
    }

    /// Milliseconds since the epoch, the clock of the server's API signatures and tokens.
    static var now: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    /// Calls the server API at `path` as the test app's server; the status and the JSON answer.
    func call(_ path: String, _ fields: [(String, String)]) async throws -> (HTTPStatus, JSONValue) {
        let client = try await APITestClient.connect(port: apiPort, on: MQTTTestClient.loops.next())
        defer { client.close() }
        let signer = APISigner(appKey: Self.appKey, secret: Self.secret)
        try await client.send(APIRequests.post(path, fields, signing: signer.headers(timestamp: Self.now)))
        var reader = client.reader()
        let response = try await reader.next()
        return (response.status, try response.json)
    }

    /// A token for `user` from the server API (`/user/getToken.json`).
    func token(_ user: String) async throws -> String {
        let (status, answer) = try await call("/user/getToken.json", [("userId", user), ("name", user)])
        guard status == .ok, let token = answer.objectValue?["token"]?.stringValue else {
            throw TestFailure("getToken for \(user): \(status) \(answer)")
        }
        return token
    }

    /// Calls `path` for `user` (with `fields` more) and fails unless the API answers 200.
    func administer(_ path: String, _ user: String, _ fields: [(String, String)] = []) async throws {
        let (status, answer) = try await call(path, [("userId", user)] + fields)
        guard status == .ok else { throw TestFailure("\(path) for \(user): \(status) \(answer)") }
    }

    /// Runs paho_peer.py `action` as `user` (a token from the API unless `token` is given).
    func paho(
        _ action: String, _ user: String, device: String, protocolVersion: String = "5", appKey: String = appKey,
        token given: String? = nil, _ options: [String] = []
    ) async throws -> [String] {
        var token = given ?? ""
        if given == nil { token = try await self.token(user) }
        return try await PahoPeer.run(action, port: port, appKey: appKey, token: token, device: device,
                                      protocolVersion: protocolVersion, options)
    }

    /// Ends the server with SIGTERM and waits for it.
    func stop() async throws {
        _ = try await process.stop(SIGTERM)
    }
}
