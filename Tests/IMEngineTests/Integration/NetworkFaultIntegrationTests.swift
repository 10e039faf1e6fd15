import IMEngine
import Synchronization
import Testing
import TestSupport

/// A device on a bad network, made by a fault proxy between it and the real server.
@Suite(.timeLimit(.minutes(2)))
struct NetworkFaultIntegrationTests {
    @Test func heartbeatLossIsDetectedWithinTwiceTheHeartbeatAndTheSessionReturns() async throws {
        // The session finds the silence within 1.5 heartbeats; 2 s leaves a loaded machine's
        // timers 1 s under the bound (1 s left them 0.5, less than CI has seen them late).
        let heartbeat = 2
        try await withIntegration { harness in
            let proxy = try harness.proxy()
            let session = try await harness.session("alice", device: "phone-alice", on: harness.engine(via: proxy)) {
                $0.heartbeat = heartbeat
            }
            _ = try await session.connect()
            #expect(await session.statuses == [.connecting, .connected])

            // The path goes silent: no byte crosses, no socket closes.
            await proxy.set(.blackhole)
            let silencedAt = ContinuousClock.now
            #expect(await eventually(within: .seconds(3 * heartbeat)) { await session.status != .connected })
            let detectedAfter = ContinuousClock.now - silencedAt
            #expect(detectedAfter < .seconds(2 * heartbeat), "heartbeat loss took \(detectedAfter)")
            #expect(await session.statuses == [.connecting, .connected, .connecting])
            #expect(await session.lastChange?.detail.contains("PINGREQ") == true)

            // Attempts through the silent path get no CONNACK; once it carries bytes again, one does.
            try await Task.sleep(for: .milliseconds(500))
            await proxy.set(.pass)
            #expect(await eventually(within: .seconds(15)) { await session.status == .connected })
            #expect(await session.statuses == [.connecting, .connected, .connecting, .connected])
            #expect(try await harness.server.isOnline("alice"))
        }
    }

    /// The connect call's timeout bounds the first connection on a network that carries nothing.
    @Test func aConnectTimeoutOnASilentNetworkEndsWithTimeoutAndNoMoreAttempts() async throws {
        try await withIntegration { harness in
            let proxy = try harness.proxy()
            await proxy.set(.blackhole)
            let session = try await harness.session("alice", device: "phone-alice", on: harness.engine(via: proxy, attemptTimeout: .seconds(1))) {
                $0.timeout = .milliseconds(1500)
            }
            let started = ContinuousClock.now
            let error = await session.connectionError()
            let elapsed = ContinuousClock.now - started
            #expect(error?.status == .timeout && error?.code == .connectTimeout, "\(String(describing: error))")
            #expect(elapsed >= .milliseconds(1500) && elapsed < .seconds(5), "ended after \(elapsed)")
            #expect(await session.statuses == [.connecting, .timeout])
            let attempts = await proxy.acceptedCount()
            await proxy.set(.pass)
            try await Task.sleep(for: .milliseconds(500))
            #expect(await proxy.acceptedCount() == attempts)
            #expect(await session.statuses == [.connecting, .timeout])
            #expect(try await !harness.server.isOnline("alice"))
        }
    }

    /// Seed 003: device A logs in on a bad network and keeps retrying; the user logs in on
    /// device B (same class) meanwhile; A's network comes back and A reconnects. With
    /// reconnectKickEnable, where the app lets clients choose, A gives way (31023) and B stays;
    /// otherwise A goes online and B is kicked (31010). The same holds when A was online and
    /// lost its connection to the bad network (heartbeat) before B logged in.
    struct KickCase: Sendable, CustomTestStringConvertible {
        var reconnectKickEnable: Bool
        var appAllowsClientControl = true
        var aWasOnline = false
        var aGivesWay: Bool { reconnectKickEnable && appAllowsClientControl }
        var testDescription: String {
            "reconnectKickEnable \(reconnectKickEnable), app allows client control \(appAllowsClientControl)"
                + (aWasOnline ? ", A online first" : "")
        }
    }

    @Test(arguments: [
        KickCase(reconnectKickEnable: true),
        KickCase(reconnectKickEnable: false),
        KickCase(reconnectKickEnable: true, appAllowsClientControl: false),
        KickCase(reconnectKickEnable: true, aWasOnline: true),
        KickCase(reconnectKickEnable: false, aWasOnline: true),
    ])
    func aDeviceBackFromABadNetworkFollowsItsReconnectKickPolicy(_ kick: KickCase) async throws {
        let apps = [IntegrationServer.app(clientControlsKickPolicy: kick.appAllowsClientControl)]
        try await withIntegration(apps: apps) { harness in
            let proxy = try harness.proxy()
            let engineA = try harness.engine(via: proxy, attemptTimeout: .seconds(1))
            let deviceA = try await harness.session("carol", device: "phone-a", on: engineA) {
                $0.reconnectKickEnable = kick.reconnectKickEnable
                $0.heartbeat = 1
            }
            let outcomeA = CallRecorder()
            if kick.aWasOnline {
                #expect(try await deviceA.connect() == "carol")
                await proxy.set(.blackhole)
                #expect(await eventually(within: .seconds(4)) { await deviceA.status != .connected })
            } else {
                await proxy.set(.blackhole)
                await deviceA.connect(completion: outcomeA.completed)
                // A's login got no answer; it is retrying now (im-reconnect 1).
                #expect(await eventually(within: .seconds(5)) { await proxy.acceptedCount() >= 2 })
            }

            let deviceB = try await harness.session("carol", device: "phone-b", on: harness.engine())
            #expect(try await deviceB.connect() == "carol")

            await proxy.set(.pass)
            if kick.aGivesWay {
                #expect(await deviceA.reached(.kickedOfflineByOtherClient, within: .seconds(15)))
                let change = await deviceA.lastChange
                #expect(change?.status == .kickedOfflineByOtherClient && change?.code == .otherDeviceLogin)
                #expect(change?.detail.contains("other-device-online") == true)
                if !kick.aWasOnline {
                    let completion = await outcomeA.waitForCompletion()
                    #expect(completion?.error?.status == .kickedOfflineByOtherClient)
                    #expect(completion?.error?.code == .otherDeviceLogin)
                }
                try await Task.sleep(for: .milliseconds(300))
                #expect(await deviceB.statuses == [.connecting, .connected])
                #expect(await deviceA.status == .kickedOfflineByOtherClient)
            } else {
                #expect(await eventually(within: .seconds(15)) { await deviceA.status == .connected })
                if !kick.aWasOnline {
                    let completion = await outcomeA.waitForCompletion()
                    #expect(completion?.userID == "carol" && completion?.error == nil)
                }
                #expect(await deviceB.reached(.kickedOfflineByOtherClient))
                let change = await deviceB.lastChange
                #expect(change?.code == .kickedByOtherClient && change?.detail.contains("other-device-login") == true)
                try await Task.sleep(for: .milliseconds(300))
                #expect(await deviceB.statuses == [.connecting, .connected, .kickedOfflineByOtherClient])
                #expect(await deviceA.status == .connected)
            }
            #expect(try await harness.server.isOnline("carol"))
        }
    }
}
