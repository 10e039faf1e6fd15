import IMEngine
import IMProtocol
import IMServer
import Testing
import TestSupport

/// Contract section 2 against the real server over sockets: a login, and every condition that
/// ends a session for good, set up through the server, surfacing with its status and code.
@Suite(.timeLimit(.minutes(2)))
struct ServerRefusalIntegrationTests {
    @Test func connectsWithTheUserIDOfTheServersTokenAndReceives() async throws {
        try await withIntegration { harness in
            let engine = try harness.engine()
            let session = try await harness.session("alice", device: "phone-alice", on: engine)
            let messages = await session.receivedMessages()
            #expect(try await session.connect() == "alice")
            #expect(await session.userID == "alice")
            #expect(await session.statuses == [.connecting, .connected])
            #expect(try await harness.server.isOnline("alice"))

            // The inbox subscription stands: a message from the server API arrives and is stored.
            let uid = try await harness.server.backend.publish(
                appKey: IntegrationServer.appKey, from: "bob", to: ["alice"], text: "hello")
            var iterator = messages.makeAsyncIterator()
            let message = await iterator.next()
            #expect(message?.uid == uid && message?.peer == "bob" && message?.text == "hello")
        }
    }

    /// A login the server refuses.
    enum Refusal: String, CaseIterable, Sendable {
        case tokenIncorrect, tokenExpiredByLifetime, tokenExpiredByInvalidation, userBlocked, userDeactivated
        case appBlocked, appUnknown

        var apps: [AppSettings] {
            switch self {
            case .tokenExpiredByLifetime: [IntegrationServer.app(lifetime: .seconds(60))]
            case .appBlocked: [IntegrationServer.app(blocked: true)]
            default: [IntegrationServer.app()]
            }
        }

        var expected: (status: ConnectionStatus, code: ConnectErrorCode?, name: IMErrorName) {
            switch self {
            case .tokenIncorrect: (.tokenIncorrect, .tokenIncorrect, .tokenIncorrect)
            case .tokenExpiredByLifetime, .tokenExpiredByInvalidation: (.tokenIncorrect, .tokenExpired, .tokenExpired)
            case .userBlocked: (.disconnException, .userBlocked, .userBlocked)
            case .userDeactivated: (.userAbandon, nil, .userAbandoned)
            case .appBlocked: (.unconnected, .appBlockedOrDeleted, .appBlocked)
            case .appUnknown: (.unconnected, .appBlockedOrDeleted, .appUnknown)
            }
        }

        /// Sets the condition up through the server and returns the session it refuses.
        func prepare(_ harness: IntegrationHarness) async throws -> Session {
            let server = harness.server
            let backend = try server.backend
            let appKey = IntegrationServer.appKey
            switch self {
            case .tokenIncorrect:
                let forged = try Token.sign(
                    TokenClaims(appKey: appKey, userID: "alice", issuedAt: server.now(), nonce: "0badc0de"), secret: "not-the-secret")
                return try await harness.session("alice", device: "phone-alice", on: harness.engine()) { $0.token = forged }
            case .tokenExpiredByLifetime:
                let session = try await harness.session("alice", device: "phone-alice", on: harness.engine())
                server.advanceWallClock(by: .seconds(61))
                return session
            case .tokenExpiredByInvalidation:
                let session = try await harness.session("alice", device: "phone-alice", on: harness.engine())
                try await backend.expireTokens(appKey: appKey, userIDs: ["alice"], before: server.now() + 1)
                return session
            case .userBlocked:
                try await backend.block(appKey: appKey, userIDs: ["alice"], minutes: 10)
            case .userDeactivated:
                try await backend.deactivate(appKey: appKey, userIDs: ["alice"])
            case .appBlocked:
                // The server issues no token for a blocked app: one signed before the block.
                let token = try Token.sign(
                    TokenClaims(appKey: appKey, userID: "alice", issuedAt: server.now(), nonce: "0badc0de"),
                    secret: IntegrationServer.secret)
                return try harness.engine().makeSession(ConnectParameters(token: token, deviceID: "phone-alice", heartbeat: 30))
            case .appUnknown:
                let token = try Token.sign(
                    TokenClaims(appKey: "ghost-app", userID: "alice", issuedAt: server.now(), nonce: "0badc0de"), secret: "x")
                return try harness.engine(appKey: "ghost-app").makeSession(ConnectParameters(token: token, deviceID: "phone-alice"))
            }
            return try await harness.session("alice", device: "phone-alice", on: harness.engine())
        }
    }

    @Test(arguments: Refusal.allCases)
    func aRefusedLoginEndsTheCallWithItsStatusAndCode(_ refusal: Refusal) async throws {
        try await withIntegration(apps: refusal.apps) { harness in
            let session = try await refusal.prepare(harness)
            let expected = refusal.expected
            let error = await session.connectionError()
            #expect(error?.status == expected.status && error?.code == expected.code, "\(String(describing: error))")
            #expect(await session.statuses == [.connecting, expected.status])
            let change = await session.lastChange
            #expect(change?.code == expected.code && change?.detail.contains(expected.name.rawValue) == true)
            try await expectNoRetry(session, user: "alice", harness: harness)
        }
    }

    @Test func afterAnExpiredTokenAFreshOneFromTheServerConnects() async throws {
        try await withIntegration(apps: [IntegrationServer.app(lifetime: .seconds(60))]) { harness in
            let session = try await harness.session("alice", device: "phone-alice", on: harness.engine())
            harness.server.advanceWallClock(by: .seconds(61))
            #expect(await session.connectionError()?.code == .tokenExpired)
            try await session.updateToken(harness.server.token("alice"))
            #expect(try await session.connect() == "alice")
            #expect(await session.statuses == [.connecting, .tokenIncorrect, .connecting, .connected])
        }
    }

    /// Refusals that say "not now" (server busy 0x89, connection rate exceeded 0x9F) are
    /// retried until the server takes the session. Bob's session reaches the server through a
    /// proxy that counts its connections: a second one means a refusal was retried.
    @Test(arguments: ["busy", "rate"])
    func aServerThatSaysNotNowIsRetriedUntilItTakesTheSession(_ condition: String) async throws {
        var limits = ServerLimits()
        if condition == "busy" { limits.maxConnections = 1 } else { limits.connectRate = 1 }
        try await withIntegration(limits: limits) { harness in
            let proxy = try harness.proxy()
            let bob = try await harness.session("bob", device: "phone-bob", on: harness.engine(via: proxy))
            // A first login opens bob's database, so the next connect call reaches the server at once.
            _ = try await bob.connect()
            await bob.disconnect()
            #expect(await eventually { (try? await harness.server.isOnline("bob")) == false })
            let alice = try await harness.session("alice", device: "phone-alice", on: harness.engine())
            _ = try await alice.connect()

            // Busy: alice holds the only slot. Rate: alice's login just took the only token,
            // which comes back 1 s later (bob's own first login may be long enough ago that
            // the token was back by now).
            let before = await proxy.acceptedCount()
            let outcome = CallRecorder()
            await bob.connect(completion: outcome.completed)
            #expect(await eventually(within: .seconds(10)) { await proxy.acceptedCount() >= before + 2 })
            if condition == "busy" {
                #expect(outcome.completion == nil)
                #expect(await bob.status == .connecting)
                await alice.disconnect()
            }
            let completion = await outcome.waitForCompletion(within: .seconds(10))
            #expect(completion?.userID == "bob" && completion?.error == nil)
            #expect(await bob.statuses == [.connecting, .connected, .signOut, .connecting, .connected])
        }
    }

    /// A server-side ending of a session that was online.
    enum Ending: String, CaseIterable, Sendable {
        case userBlocked, userDeactivated, kicked, otherDeviceLogin

        var expected: (status: ConnectionStatus, code: ConnectErrorCode?, name: IMErrorName) {
            switch self {
            case .userBlocked: (.disconnException, .userBlocked, .userBlocked)
            case .userDeactivated: (.userAbandon, nil, .userAbandoned)
            case .kicked: (.kickedOfflineByOtherClient, .kickedByOtherClient, .kicked)
            case .otherDeviceLogin: (.kickedOfflineByOtherClient, .kickedByOtherClient, .otherDeviceLogin)
            }
        }
    }

    @Test(arguments: Ending.allCases)
    func aSessionEndedByTheServerReportsItsStatusAndCodeAndStops(_ ending: Ending) async throws {
        try await withIntegration { harness in
            let session = try await harness.session("alice", device: "phone-alice", on: harness.engine())
            #expect(try await session.connect() == "alice")
            let backend = try harness.server.backend
            let appKey = IntegrationServer.appKey
            var other: Session?
            switch ending {
            case .userBlocked: try await backend.block(appKey: appKey, userIDs: ["alice"], minutes: 10)
            case .userDeactivated: try await backend.deactivate(appKey: appKey, userIDs: ["alice"])
            case .kicked: try await backend.kick(appKey: appKey, userIDs: ["alice"])
            case .otherDeviceLogin:
                // The same user logs in on another phone: a login, not a reconnection.
                other = try await harness.session("alice", device: "phone-alice-2", on: harness.engine())
                #expect(try await other?.connect() == "alice")
            }
            let expected = ending.expected
            #expect(await session.reached(expected.status))
            #expect(await session.statuses == [.connecting, .connected, expected.status])
            let change = await session.lastChange
            #expect(change?.code == expected.code && change?.detail.contains(expected.name.rawValue) == true)
            #expect(try await session.connectionLog().last?.status == expected.status)
            if let other {
                try await Task.sleep(for: .milliseconds(300))
                #expect(await session.statuses.count == 3)
                #expect(await other.statuses == [.connecting, .connected])
            } else {
                try await expectNoRetry(session, user: "alice", harness: harness)
            }
        }
    }

    /// After a no-retry ending, nothing more happens: no attempt (the first retry would come
    /// after 50 ms), and the server has the user offline.
    private func expectNoRetry(_ session: Session, user: String, harness: IntegrationHarness) async throws {
        let before = await session.statuses
        try await Task.sleep(for: .milliseconds(300))
        #expect(await session.statuses == before)
        #expect(try await !harness.server.isOnline(user))
    }
}
