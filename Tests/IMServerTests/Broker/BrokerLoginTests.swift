import IMProtocol
import IMServer
import MQTT
import Testing
import TestSupport

/// Every login row of contract section 2, produced by setting its cause up through the server's
/// API backend or configuration, and checked by reason code and `im-error`.
@Suite(.timeLimit(.minutes(1)))
struct BrokerLoginTests {
    @Test func aTokenFromTheServerLogsInAndNamesItsUser() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let client = try await MQTTTestClient.open(port: server.port)
        let connack = try await client.login(appKey: TestServer.appKey, token: try await server.token("alice"), device: "phone-1")
        #expect(connack?.reasonCode == .success)
        #expect(connack?.sessionPresent == false)
        #expect(connack?.properties.userProperty(IMUserProperty.userID) == "alice")
        #expect(connack?.properties.maximumQoS == .atLeastOnce)
        #expect(try await client.subscribeInbox() == [.grantedQoS1])
        #expect(await server.backend.isOnline(appKey: TestServer.appKey, userID: "alice"))
        client.close()
        await server.stop()
    }

    func refusal(_ server: TestServer, appKey: String = TestServer.appKey, token: String, device: String = "phone-1") async throws -> (ReasonCode?, String?, Bool) {
        let client = try await MQTTTestClient.open(port: server.port)
        let connack = try await client.login(appKey: appKey, token: token, device: device)
        // A refused client is closed at once; an accepted one stays open.
        let closed = connack?.reasonCode == .success ? false : await client.closed()
        return (connack?.reasonCode, connack?.properties.userProperty(IMUserProperty.error), closed)
    }

    @Test func tokenIncorrectForGarbageAnotherAppOrAnotherSecret() async throws {
        let directory = TemporaryDirectory()
        let other = AppSettings(appKey: "other-app", appSecret: "other-secret")
        let server = try await TestServer.start(directory: directory, apps: [TestServer.app(), other])
        let otherToken = try await server.backend.issueToken(appKey: "other-app", userID: "alice")
        for token in ["garbage", otherToken, try Token.issue(appKey: TestServer.appKey, secret: "wrong", userID: "alice", issuedAt: 0)] {
            let (code, name, closed) = try await refusal(server, token: token)
            #expect(code == .badUserNameOrPassword && name == "token-incorrect" && closed)
        }
        await server.stop()
    }

    @Test func tokenExpiredByLifetimeAndByTheExpireCall() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory, apps: [TestServer.app(lifetime: .seconds(3600))])
        let old = try await server.token("alice")
        server.advanceWallClock(by: 3_600_000)
        var (code, name, _) = try await refusal(server, token: old)
        #expect(code == .badUserNameOrPassword && name == "token-expired")

        let fresh = try await server.token("alice")
        try await server.backend.expireTokens(appKey: TestServer.appKey, userIDs: ["alice"], before: server.now() + 1)
        (code, name, _) = try await refusal(server, token: fresh)
        #expect(code == .badUserNameOrPassword && name == "token-expired")
        server.advanceWallClock(by: 10)
        let newest = try await server.token("alice")
        (code, _, _) = try await refusal(server, token: newest)
        #expect(code == .success)
        await server.stop()
    }

    @Test func blockedAtConnectAndWhileOnlineThenUnblocked() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let online = try await server.loggedIn("alice", device: "phone-1")
        try await server.backend.block(appKey: TestServer.appKey, userIDs: ["alice"], minutes: 10)
        guard case .disconnect(let disconnect)? = await online.next() else { Issue.record("no DISCONNECT"); return }
        #expect(disconnect.reasonCode == .administrativeAction)
        #expect(disconnect.properties.userProperty(IMUserProperty.error) == "user-blocked")
        #expect(await online.closed())

        let (code, name, _) = try await refusal(server, token: try await server.token("alice"))
        #expect(code == .banned && name == "user-blocked")
        try await server.backend.unblock(appKey: TestServer.appKey, userIDs: ["alice"])
        let (after, _, _) = try await refusal(server, token: try await server.token("alice"))
        #expect(after == .success)
        await server.stop()
    }

    @Test func deactivatedUsersAreDisconnectedAndRefusedUntilReactivated() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let online = try await server.loggedIn("alice", device: "phone-1")
        try await server.backend.deactivate(appKey: TestServer.appKey, userIDs: ["alice"])
        guard case .disconnect(let disconnect)? = await online.next() else { Issue.record("no DISCONNECT"); return }
        #expect(disconnect.reasonCode == .administrativeAction)
        #expect(disconnect.properties.userProperty(IMUserProperty.error) == "user-abandoned")
        let (code, name, _) = try await refusal(server, token: try await server.token("alice"))
        #expect(code == .notAuthorized && name == "user-abandoned")
        try await server.backend.reactivate(appKey: TestServer.appKey, userIDs: ["alice"])
        #expect(try await refusal(server, token: try await server.token("alice")).0 == .success)
        await server.stop()
    }

    @Test func blockedAndUnknownApps() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory, apps: [TestServer.app(blocked: true)])
        let token = try Token.issue(appKey: TestServer.appKey, secret: TestServer.secret, userID: "alice", issuedAt: 0)
        var (code, name, _) = try await refusal(server, token: token)
        #expect(code == .notAuthorized && name == "app-blocked")
        (code, name, _) = try await refusal(server, appKey: "nobody-knows", token: token)
        #expect(code == .notAuthorized && name == "app-unknown")
        await server.stop()
    }

    @Test func kickedByTheAdminAPI() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let phone = try await server.loggedIn("alice", device: "phone-1")
        let laptop = try await server.loggedIn("alice", device: "laptop-1", platform: "pc")
        try await server.backend.kick(appKey: TestServer.appKey, userIDs: ["alice"])
        for client in [phone, laptop] {
            guard case .disconnect(let disconnect)? = await client.next() else { Issue.record("no DISCONNECT"); continue }
            #expect(disconnect.reasonCode == .administrativeAction)
            #expect(disconnect.properties.userProperty(IMUserProperty.error) == "kicked")
        }
        #expect(await !server.backend.isOnline(appKey: TestServer.appKey, userID: "alice"))
        await server.stop()
    }

    @Test func serverBusyAndConnectRateExceeded() async throws {
        let directory = TemporaryDirectory()
        var limits = ServerLimits()
        limits.maxConnections = 1
        let busy = try await TestServer.start(directory: directory, limits: limits)
        _ = try await busy.loggedIn("alice", device: "phone-1")
        let (code, _, closed) = try await refusal(busy, token: try await busy.token("bob"), device: "phone-2")
        #expect(code == .serverBusy && closed)
        await busy.stop()

        limits = ServerLimits()
        limits.connectRate = 1
        let limited = try await TestServer.start(directory: directory, limits: limits)
        let token = try await limited.token("bob")
        #expect(try await refusal(limited, token: token, device: "phone-2").0 == .success)
        #expect(try await refusal(limited, token: token, device: "phone-3").0 == .connectionRateExceeded)
        await limited.stop()
    }

    @Test func invalidClientIdentifierIsRefused() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        #expect(try await refusal(server, token: try await server.token("alice"), device: "bad/device").0 == .clientIdentifierNotValid)
        await server.stop()
    }

    @Test func aConnectionThatSendsNoConnectIsClosed() async throws {
        let directory = TemporaryDirectory()
        var limits = ServerLimits()
        limits.connectTimeout = .seconds(1)
        let server = try await TestServer.start(directory: directory, limits: limits)
        let silent = try await MQTTTestClient.open(port: server.port)
        #expect(await silent.closed(within: .seconds(3)))
        await server.stop()
    }

    @Test func keepAliveTimeoutDisconnectsWith0x8D() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let client = try await MQTTTestClient.open(port: server.port)
        let token = try await server.token("alice")
        // Before CONNECT goes out: the server counts from its arrival, however late CONNACK comes back.
        let started = ContinuousClock.now
        _ = try await client.login(appKey: TestServer.appKey, token: token, device: "phone-1", keepAlive: 1)
        guard case .disconnect(let disconnect)? = await client.next(within: .seconds(4)) else { Issue.record("no DISCONNECT"); return }
        #expect(disconnect.reasonCode == .keepAliveTimeout)
        #expect(ContinuousClock.now - started >= .milliseconds(1400))
        await server.stop()
    }

    @Test func pingsKeepAConnectionAlive() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let client = try await MQTTTestClient.open(port: server.port)
        // Cut after 3 s of silence: six pings 600 ms apart outlast that, with room for late sleeps.
        _ = try await client.login(appKey: TestServer.appKey, token: try await server.token("alice"), device: "phone-1", keepAlive: 2)
        for _ in 0..<6 {
            try await Task.sleep(for: .milliseconds(600))
            try await client.send(.pingreq)
            #expect(await client.next() == .pingresp)
        }
        await server.stop()
    }

    @Test func gracefulShutdownSends0x8B() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let client = try await server.loggedIn("alice", device: "phone-1")
        await server.stop()
        guard case .disconnect(let disconnect)? = await client.next() else { Issue.record("no DISCONNECT"); return }
        #expect(disconnect.reasonCode == .serverShuttingDown)
        #expect(await client.closed())
    }
}
