import IMEngine
import IMProtocol
import MQTT
import Testing
import TestSupport

/// Contract section 2 end to end: refusals and server DISCONNECTs against the scripted broker.
@Suite(.timeLimit(.minutes(1)))
struct SessionRefusalTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var reason: ReasonCode
        var name: IMErrorName?
        var status: ConnectionStatus
        var code: ConnectErrorCode?

        var testDescription: String { "\(reason) \(name?.rawValue ?? "(no im-error)") → \(status)" }
    }

    static let connackRows: [Row] = [
        Row(reason: .badUserNameOrPassword, name: .tokenIncorrect, status: .tokenIncorrect, code: .tokenIncorrect),
        Row(reason: .badUserNameOrPassword, name: .tokenExpired, status: .tokenIncorrect, code: .tokenExpired),
        Row(reason: .banned, name: .userBlocked, status: .disconnException, code: .userBlocked),
        Row(reason: .notAuthorized, name: .userAbandoned, status: .userAbandon, code: nil),
        Row(reason: .notAuthorized, name: .appBlocked, status: .unconnected, code: .appBlockedOrDeleted),
        Row(reason: .notAuthorized, name: .appUnknown, status: .unconnected, code: .appBlockedOrDeleted),
        Row(reason: .notAuthorized, name: .otherDeviceOnline, status: .kickedOfflineByOtherClient, code: .otherDeviceLogin),
        // A stock broker: the reason code alone.
        Row(reason: .badUserNameOrPassword, name: nil, status: .tokenIncorrect, code: .tokenIncorrect),
        Row(reason: .notAuthorized, name: nil, status: .tokenIncorrect, code: .tokenIncorrect),
        Row(reason: .banned, name: nil, status: .disconnException, code: .userBlocked),
    ]

    @Test(arguments: connackRows) func terminalRefusalEndsTheCallWithNoRetry(row: Row) async throws {
        try await withBroker(.init(connack: { _, _ in ScriptedBroker.refuse(row.reason, row.name) })) { broker, test in
            let session = test.session()
            let recorder = CallRecorder()
            await session.connect(databaseOpened: recorder.databaseOpened, completion: recorder.completed)
            let completion = await recorder.waitForCompletion()
            #expect(completion?.userID == nil)
            #expect(completion?.error?.status == row.status)
            #expect(completion?.error?.code == row.code)
            #expect(await session.statuses == [.connecting, row.status])
            let last = await session.statusHistory.last
            #expect(last?.code == row.code)
            try await Task.sleep(for: .milliseconds(400))  // the first retry would come after 50 ms
            #expect(broker.connects.count == 1)
            #expect(try await session.connectionLog().last?.status == row.status)
            await session.close()
        }
    }

    static let disconnectRows: [Row] = [
        Row(reason: .administrativeAction, name: .userBlocked, status: .disconnException, code: .userBlocked),
        Row(reason: .administrativeAction, name: .userAbandoned, status: .userAbandon, code: nil),
        Row(reason: .administrativeAction, name: .kicked, status: .kickedOfflineByOtherClient, code: .kickedByOtherClient),
        Row(reason: .sessionTakenOver, name: .otherDeviceLogin, status: .kickedOfflineByOtherClient, code: .kickedByOtherClient),
        Row(reason: .sessionTakenOver, name: nil, status: .kickedOfflineByOtherClient, code: .kickedByOtherClient),
        Row(reason: .administrativeAction, name: nil, status: .kickedOfflineByOtherClient, code: .kickedByOtherClient),
    ]

    @Test(arguments: disconnectRows) func terminalDisconnectGoesToTheStatusOnly(row: Row) async throws {
        try await withBroker { broker, test in
            let session = test.session()
            let changes = await session.statusChanges()
            let user = try await session.connect()
            #expect(user == "alice")
            var properties: Properties = []
            if let name = row.name { properties.append(.userProperty(IMUserProperty.error, name.rawValue)) }
            broker.send(.disconnect(Disconnect(reasonCode: row.reason, properties: properties)), on: 0)
            var seen: [ConnectionStatus] = []
            for await change in changes {
                seen.append(change.status)
                if change.status == row.status {
                    #expect(change.code == row.code)
                    break
                }
            }
            #expect(seen == [.connecting, .connected, row.status])
            try await Task.sleep(for: .milliseconds(400))
            #expect(broker.connects.count == 1)
            #expect(await session.phase == .stopped(SessionTermination(row.status, row.code)))
            await session.close()
        }
    }

    @Test func retryableRefusalsAreRetriedAsReconnections() async throws {
        let refusals: [ReasonCode] = [.serverBusy, .serverUnavailable, .connectionRateExceeded]
        let broker = try ScriptedBroker(.init(connack: { index, connect in
            index < refusals.count ? ScriptedBroker.refuse(refusals[index]) : ScriptedBroker.accept(connect)
        }))
        let test = try TestEngine(servers: [broker.address])
        defer { broker.shutdown() }
        try await withTimeout {
            let session = test.session()
            let user = try await session.connect()
            #expect(user == "alice")
            #expect(broker.connects.map { $0.userProperty(IMUserProperty.reconnect) } == [nil, "1", "1", "1"])
            #expect(await session.statuses == [.connecting, .connected])
            // The status stayed connecting, yet the log keeps each failed attempt and why (for timelines).
            let log = try await session.connectionLog()
            #expect(log.map(\.status) == [.connecting, .connecting, .connecting, .connecting, .connected])
            #expect(log[1...3].allSatisfy { $0.detail.hasPrefix("attempt failed: ") && $0.code == nil }, "\(log)")
            await session.close()
        }
        await test.shutdown()
    }

    @Test(arguments: [ReasonCode.serverShuttingDown, .keepAliveTimeout])
    func retryableDisconnectReconnects(reason: ReasonCode) async throws {
        try await withBroker { broker, test in
            let session = test.session()
            _ = try await session.connect()
            broker.send(.disconnect(Disconnect(reasonCode: reason)), on: 0)
            #expect(await eventually { await session.statuses == [.connecting, .connected, .connecting, .connected] })
            #expect(broker.connects.count == 2)
            #expect(broker.connects.last?.userProperty(IMUserProperty.reconnect) == "1")
            await session.close()
        }
    }

    @Test func connackRedirectIsFollowedToTheReferencedServer() async throws {
        let target = try ScriptedBroker()
        let mover = try ScriptedBroker(.init(connack: { _, _ in
            ScriptedBroker.refuse(.useAnotherServer, reference: "127.0.0.1:\(target.port)")
        }))
        let test = try TestEngine(servers: [mover.address])
        defer {
            mover.shutdown()
            target.shutdown()
        }
        try await withTimeout {
            let session = test.session()
            let user = try await session.connect()
            #expect(user == "alice")
            #expect(mover.connects.count == 1 && target.connects.count == 1)
            #expect(await session.connectedServer == target.address)
            await session.close()
        }
        await test.shutdown()
    }

    @Test func disconnectRedirectReconnectsAtTheReferencedServer() async throws {
        let target = try ScriptedBroker()
        let first = try ScriptedBroker()
        let test = try TestEngine(servers: [first.address])
        defer {
            first.shutdown()
            target.shutdown()
        }
        try await withTimeout {
            let session = test.session()
            _ = try await session.connect()
            first.send(.disconnect(Disconnect(reasonCode: .serverMoved, properties: [.serverReference(target.address.description)])), on: 0)
            #expect(await eventually { await session.connectedServer == target.address })
            #expect(target.connects.first?.userProperty(IMUserProperty.reconnect) == "1")
            #expect(first.connects.count == 1)
            await session.close()
        }
        await test.shutdown()
    }
}
