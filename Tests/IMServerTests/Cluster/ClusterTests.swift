import IMProtocol
import IMServer
import MQTT
import Testing
import TestSupport

/// Three imserver nodes on one PostgreSQL act as one service: the device policy, messages and
/// the server API reach devices on any node.
@Suite(.timeLimit(.minutes(1)))
struct ClusterTests {
    @Test func aLoginOnNode2KicksTheSameUsersOtherPhoneOnNode1() async throws {
        try await TestCluster.with(2) { cluster in
            let phoneA = try await cluster.nodes[0].loggedIn("alice", device: "phone-a")
            let phoneB = try await cluster.nodes[1].loggedIn("alice", device: "phone-b")
            guard case .disconnect(let kicked)? = await phoneA.next() else { Issue.record("A was not kicked"); return }
            #expect(kicked.reasonCode == .sessionTakenOver)
            #expect(kicked.properties.userProperty(IMUserProperty.error) == "other-device-login")
            #expect(await phoneA.closed())
            try await phoneB.send(.pingreq)
            #expect(await phoneB.next() == .pingresp)
        }
    }

    @Test func theSameDeviceOnAnotherNodeTakesTheSessionOver() async throws {
        try await TestCluster.with(2) { cluster in
            let first = try await cluster.nodes[0].loggedIn("alice", device: "phone")
            let second = try await cluster.nodes[1].loggedIn("alice", device: "phone")
            guard case .disconnect(let kicked)? = await first.next() else { Issue.record("the first was not taken over"); return }
            #expect(kicked.reasonCode == .sessionTakenOver)
            #expect(kicked.properties.userProperty(IMUserProperty.error) == nil)
            try await second.send(.pingreq)
            #expect(await second.next() == .pingresp)
        }
    }

    /// An engine racing two nodes logs in on both and closes the slower: the kept session stays.
    @Test func aSameDeviceLoginThatEndsAtOnceDoesNotTakeTheSessionOver() async throws {
        try await TestCluster.with(2) { cluster in
            let kept = try await cluster.nodes[0].loggedIn("alice", device: "phone")
            let abandoned = try await cluster.nodes[1].loggedIn("alice", device: "phone")
            abandoned.close()
            try await Task.sleep(for: .milliseconds(1_500))
            try await kept.send(.pingreq)
            #expect(await kept.next() == .pingresp)
        }
    }

    @Test func aDeviceOfAnotherClassOnAnotherNodeStaysOnline() async throws {
        try await TestCluster.with(2) { cluster in
            let phone = try await cluster.nodes[0].loggedIn("alice", device: "phone")
            let laptop = try await cluster.nodes[1].loggedIn("alice", device: "laptop", platform: "pc")
            try await Task.sleep(for: .milliseconds(300))
            try await phone.send(.pingreq)
            #expect(await phone.next() == .pingresp)
            try await laptop.send(.pingreq)
            #expect(await laptop.next() == .pingresp)
        }
    }

    /// `im-kick-enable` on a reconnection gives way to a device online on another node.
    @Test func aReconnectionWithKickEnableGivesWayToADeviceOnAnotherNode() async throws {
        try await TestCluster.with(2) { cluster in
            let online = try await cluster.nodes[0].loggedIn("alice", device: "phone-b")
            let node2 = cluster.nodes[1]
            let returning = try await MQTTTestClient.open(port: node2.port)
            let connack = try await returning.login(
                appKey: TestServer.appKey, token: try await node2.token("alice"), device: "phone-a", reconnect: true, kickEnable: true)
            #expect(connack?.reasonCode == .notAuthorized)
            #expect(connack?.properties.userProperty(IMUserProperty.error) == "other-device-online")
            try await online.send(.pingreq)
            #expect(await online.next() == .pingresp)
        }
    }

    @Test func aMessageSentOnNode1ReachesItsRecipientOnNode2AtOnce() async throws {
        try await TestCluster.with(3) { cluster in
            let bob = try await cluster.nodes[1].loggedIn("bob", device: "phone")
            let alice = try await cluster.nodes[0].loggedIn("alice", device: "phone")
            #expect(try await alice.sendText("hi bob", to: "bob", cid: "c1", packetID: 1) == .success)
            guard case .publish(let delivered)? = await bob.next(within: .seconds(3)) else { Issue.record("bob got nothing"); return }
            #expect(try TextMessage.decode(delivered.payload).text == "hi bob")
            #expect(delivered.topic == IMTopic.inbox(from: "alice").name)
        }
    }

    @Test func aMessageForAnOfflineUserWaitsForItsLoginOnAnyNode() async throws {
        try await TestCluster.with(3) { cluster in
            let alice = try await cluster.nodes[0].loggedIn("alice", device: "phone")
            #expect(try await alice.sendText("while you were out", to: "carol", cid: "c1", packetID: 1) == .success)
            let carol = try await cluster.nodes[2].loggedIn("carol", device: "tablet")
            guard case .publish(let delivered)? = await carol.next(within: .seconds(3)) else { Issue.record("carol got nothing"); return }
            #expect(try TextMessage.decode(delivered.payload).text == "while you were out")
        }
    }

    @Test(arguments: ["kick", "block", "deactivate"])
    func anAPICallOnNode1ActsOnADeviceOnNode2(_ action: String) async throws {
        try await TestCluster.with(2) { cluster in
            let bob = try await cluster.nodes[1].loggedIn("bob", device: "phone")
            let api = cluster.nodes[0].backend
            #expect(await api.isOnline(appKey: TestServer.appKey, userID: "bob"))
            let expected: String
            switch action {
            case "kick": try await api.kick(appKey: TestServer.appKey, userIDs: ["bob"]); expected = "kicked"
            case "block": try await api.block(appKey: TestServer.appKey, userIDs: ["bob"], minutes: 5); expected = "user-blocked"
            default: try await api.deactivate(appKey: TestServer.appKey, userIDs: ["bob"]); expected = "user-abandoned"
            }
            guard case .disconnect(let ended)? = await bob.next(within: .seconds(3)) else { Issue.record("bob stayed online"); return }
            #expect(ended.reasonCode == .administrativeAction)
            #expect(ended.properties.userProperty(IMUserProperty.error) == expected)
            if action != "kick" {
                // The standing is shared: node 2 refuses bob's next login too.
                let again = try await MQTTTestClient.open(port: cluster.nodes[1].port)
                let connack = try await again.login(appKey: TestServer.appKey, token: try await cluster.nodes[1].token("bob"), device: "phone")
                #expect(connack?.reasonCode == (action == "block" ? ReasonCode(0x8A) : .notAuthorized))
        }
        }
    }
}

/// `imserver app` on the shared database, as an operator runs it: every node follows.
@Suite(.timeLimit(.minutes(1)))
struct ClusterAppCommandTests {
    @Test func anAppBlockedWithStoreIsRefusedOnEveryNode() async throws {
        try await TestCluster.with(2) { cluster in
            let config = try cluster.directory.write("server.json", """
                {"apps": [{"appKey": "\(TestServer.appKey)", "appSecret": "\(TestServer.secret)"}]}
                """)
            // Tokens first: a node that knows the app is blocked issues none.
            var tokens: [String] = []
            for node in cluster.nodes { tokens.append(try await node.token("alice")) }
            let blocked = try AppCommandRunner.run(["block", TestServer.appKey, "--store", cluster.storeURL, "--config", config])
            #expect(blocked.status == 0, "\(blocked.stderr)")
            for (node, token) in zip(cluster.nodes, tokens) {
                var code: ReasonCode?
                for _ in 0..<40 where code != .notAuthorized {
                    let client = try await MQTTTestClient.open(port: node.port)
                    code = try await client.login(appKey: TestServer.appKey, token: token, device: "phone")?.reasonCode
                    client.close()
                    if code != .notAuthorized { try await Task.sleep(for: .milliseconds(100)) }
                }
                #expect(code == .notAuthorized)
            }
            let wrong = try AppCommandRunner.run(["list", "--store", cluster.storeURL, "--data", cluster.directory.path])
            #expect(wrong.status == 2 && wrong.stderr.contains("--data and --store"))
        }
    }
}
