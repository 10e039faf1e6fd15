import Foundation
import IMProtocol
import MQTT
import Testing
import TestSupport

/// SIGHUP reads imserver's configuration file again: apps and limits change with clients
/// staying connected; a file that does not load leaves everything as it was and says why.
@Suite(.timeLimit(.minutes(1)))
struct ImserverReloadTests {
    /// A configuration with these apps (each secret is its key and "-secret") and a connection limit.
    static func configuration(apps: [String], maxConnections: Int) -> String {
        let list = apps.map { #"{"appKey": "\#($0)", "appSecret": "\#($0)-secret"}"# }.joined(separator: ", ")
        return #"{"apps": [\#(list)], "limits": {"maxConnections": \#(maxConnections)}}"#
    }

    /// A client's CONNECT as `user` of `app`, and its answer.
    func login(_ app: String, _ user: String, port: UInt16) async throws -> (MQTTTestClient, ReasonCode?) {
        let client = try await MQTTTestClient.open(port: port)
        let token = try Token.issue(appKey: app, secret: "\(app)-secret", userID: user, issuedAt: Int64(Date().timeIntervalSince1970 * 1000))
        return (client, try await client.login(appKey: app, token: token, device: "\(user)-phone")?.reasonCode)
    }

    @Test func sighupAppliesNewAppsAndLimitsToAConnectedServerAndKeepsThemWhenTheFileBreaks() async throws {
        let directory = TemporaryDirectory()
        let file = directory.path + "/imserver.json", errors = directory.path + "/errors"
        try Self.configuration(apps: ["one"], maxConnections: 10).write(toFile: file, atomically: true, encoding: .utf8)
        let server = try await ImserverProcess.start(dataDirectory: directory.path + "/data", extra: ["--config", file], errors: errors)
        let port = server.mqttPort
        let (alice, aliceLogin) = try await login("one", "alice", port: port)
        #expect(aliceLogin == .success)
        #expect(try await login("two", "bob", port: port).1 == .notAuthorized)

        try Self.configuration(apps: ["one", "two"], maxConnections: 3).write(toFile: file, atomically: true, encoding: .utf8)
        server.process.signal(SIGHUP)
        let reloaded = try await offPool { server.readLine() }
        #expect(reloaded == #"{"event":"reloaded","configuration":"\#(file)","apps":2}"#)
        let (bob, bobLogin) = try await login("two", "bob", port: port)
        #expect(bobLogin == .success)
        let (carol, carolLogin) = try await login("one", "carol", port: port)
        #expect(carolLogin == .success)
        // Three connections are the limit now.
        #expect(try await login("two", "dave", port: port).1 == .serverBusy)
        try await alice.send(.pingreq)
        #expect(await alice.next() == .pingresp)

        try #"{"apps": [{"appKey": "one"}], "limits": {"maxConnections": "many"}}"#.write(toFile: file, atomically: true, encoding: .utf8)
        server.process.signal(SIGHUP)
        #expect(await eventually { ((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "").contains("does not load") })
        let said = try String(contentsOfFile: errors, encoding: .utf8)
        #expect(said.contains("imserver: warning: SIGHUP: \(file):1:11: error: apps[0].appSecret: missing (required)"))
        #expect(said.contains("imserver: warning: SIGHUP: \(file):1:60: error: limits.maxConnections: expected a whole number, found a string"))
        #expect(said.contains("imserver: warning: SIGHUP: \(file) does not load; the previous configuration stays in use"))
        // The limit and the apps of the last good file stay.
        #expect(try await login("two", "erin", port: port).1 == .serverBusy)
        carol.close()
        #expect(await eventually { (try? await login("two", "frank", port: port).1) == .success })
        try await bob.send(.pingreq)
        #expect(await bob.next() == .pingresp)
        alice.close()
        #expect(try await server.stop(SIGTERM) == .exited(0))
    }
}
