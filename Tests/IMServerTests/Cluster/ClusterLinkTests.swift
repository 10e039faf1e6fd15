import IMEncoding
import IMJSON
import IMPostgres
import IMProtocol
import IMTransport
import MQTT
import Testing
import TestSupport
@testable import IMServer

/// Nodes send each other their deliver notices over direct links once every live node is
/// linked, through NOTIFY while one is not, and a link serves only a peer that proves it
/// knows the database's secret (issue 42, `NodeLinks`).
@Suite(.timeLimit(.minutes(1)))
struct ClusterLinkTests {
    @Test func messagesCrossOverTheLinksOnceEveryNodeIsLinked() async throws {
        try await TestCluster.with(2) { cluster in
            try await waitForCarriesAll(true, on: cluster.nodes)
            let receiving = cluster.nodes[1]
            let bob = try await receiving.loggedIn("bob", device: "phone")
            let alice = try await cluster.nodes[0].loggedIn("alice", device: "phone")
            try await TestCluster.exchange(1, from: alice, to: bob)
            let before = try await receiving.scrape()
            try await TestCluster.exchange(5, from: alice, to: bob, first: 2)
            let after = try await receiving.scrape()
            #expect(growth("imserver_cluster_link_notices_received_total", before, after) == 5)
            #expect(growth("imserver_cluster_notices_received_total", before, after) == 0)
            #expect(after["imserver_cluster_links{direction=\"in\"}"] == 1)
            #expect(after["imserver_cluster_links{direction=\"out\"}"] == 1)
        }
    }

    /// A login's notice goes over the link too: the user's other phone, on the other node, is let go.
    @Test func aLoginElsewhereDisplacesADeviceOverTheLink() async throws {
        try await TestCluster.with(2) { cluster in
            try await waitForCarriesAll(true, on: cluster.nodes)
            let first = try await cluster.nodes[0].loggedIn("alice", device: "phone-1")
            let before = try await cluster.nodes[0].scrape()
            _ = try await cluster.nodes[1].loggedIn("alice", device: "phone-2")
            guard case .disconnect(let kicked)? = await first.next(within: .seconds(5)) else {
                throw TestFailure("phone-1 stayed online beside phone-2")
            }
            #expect(kicked.reasonCode == .sessionTakenOver)
            let after = try await cluster.nodes[0].scrape()
            #expect(growth("imserver_cluster_link_notices_received_total", before, after) == 1)
            #expect(growth("imserver_cluster_notices_received_total", before, after) == 0)
        }
    }

    /// A live node without a link address (a node older than the links writes none): the
    /// others notify again, and their messages reach their recipients as before.
    @Test func aLiveNodeWithoutALinkHasTheNoticesSentByNotify() async throws {
        try await TestCluster.with(2) { cluster in
            try await waitForCarriesAll(true, on: cluster.nodes)
            let store = try PostgresConnection.connect(cluster.storeURL)
            defer { store.close() }
            // Its heartbeat is in the future: live for the whole test.
            let later = cluster.nodes[0].now() + 60_000
            _ = try store.execute("INSERT INTO node(name, started_at, seen_at) VALUES ('older', $1, $1)", [.integer(later)])
            try await waitForCarriesAll(false, on: cluster.nodes)
            let receiving = cluster.nodes[1]
            let bob = try await receiving.loggedIn("bob", device: "phone")
            let alice = try await cluster.nodes[0].loggedIn("alice", device: "phone")
            try await TestCluster.exchange(1, from: alice, to: bob)
            let before = try await receiving.scrape()
            try await TestCluster.exchange(3, from: alice, to: bob, first: 2)
            let after = try await receiving.scrape()
            #expect(growth("imserver_cluster_notices_received_total", before, after) == 3)
            #expect(growth("imserver_cluster_link_notices_received_total", before, after) == 0)
        }
    }

    /// The wire contract from outside: a peer with the wrong secret is cut off after its proof;
    /// one with the right secret proves the node, then reads the notices of logins and of a
    /// message there.
    @Test func aLinkServesOnlyAPeerThatProvesTheSecret() async throws {
        try await TestCluster.with(1) { cluster in
            let node = cluster.nodes[0]
            let address = try #require(node.server.linkAddress)
            let store = try PostgresConnection.connect(cluster.storeURL)
            let text = try #require(try store.execute("SELECT secret FROM link_secret").rows.first?[0].string)
            store.close()
            let secret = try #require(Hex.decode(text))

            var stranger = try await LinkProbe.connect(address, as: "stranger", secret: Array(repeating: 7, count: secret.count))
            #expect(try await stranger.proveAndVerify() == false)
            #expect(((try? await stranger.nextNotice()) ?? nil) == nil, "the link stayed open after a wrong proof")

            var peer = try await LinkProbe.connect(address, as: "probe", secret: secret)
            #expect(try await peer.proveAndVerify() == true)
            try await waitForCarriesAll(true, on: [node])
            try await peer.ping()
            let bob = try await node.loggedIn("bob", device: "phone")
            let alice = try await node.loggedIn("alice", device: "phone")
            try await TestCluster.exchange(1, from: alice, to: bob)
            var logins: [String] = []
            var notice = try #require(try await peer.nextNotice())
            while case .login(_, _, let userID, _, _) = try ClusterNotice(parsing: String(decoding: notice, as: UTF8.self)).event {
                logins.append(userID)
                notice = try #require(try await peer.nextNotice())
            }
            #expect(logins == ["bob", "alice"])
            let parsed = try ClusterNotice(parsing: String(decoding: notice, as: UTF8.self))
            guard case .deliver(let appKey, let deliveries, let message?, _) = parsed.event else {
                throw TestFailure("not a deliver notice with its message: \(String(decoding: notice, as: UTF8.self))")
            }
            #expect(parsed.node == "node-1" && appKey == TestServer.appKey)
            #expect(deliveries.map(\.deviceID) == ["phone"] && message.text == "m1")
        }
    }

    /// A message whose notice was lost (stored here without any) reaches its recipient once
    /// the link it would have come by is up again: the node that dialed reads its devices' queues.
    @Test func aLinkThatComesBackCatchesUp() async throws {
        try await TestCluster.with(2) { cluster in
            try await waitForCarriesAll(true, on: cluster.nodes)
            let bob = try await cluster.nodes[1].loggedIn("bob", device: "phone")
            try await storeWithoutNotice("lost", in: cluster)
            #expect(await bob.next(within: .milliseconds(500)) == nil)
            let before = try await cluster.nodes[1].scrape()
            // Node 1 drops the link node 2 made; node 2 dials again at once.
            let core = cluster.nodes[0].server.core
            _ = await cluster.nodes[0].server.onLoop { core.value.cluster.links?.subscribers["node-2"]?.connection.close(.abortive) }
            guard case .publish(let delivered)? = await bob.next(within: .seconds(5)) else { throw TestFailure("the lost message did not arrive") }
            #expect(try TextMessage.decode(delivered.payload).text == "lost")
            let after = try await cluster.nodes[1].scrape()
            #expect(growth("imserver_cluster_links_lost_total", before, after) == 1)
            #expect(growth("imserver_cluster_catch_ups_total", before, after) == 1)
        }
    }

    /// When the link cannot come back (the other node stopped taking links), the node reads its
    /// devices' queues `catchUpAfter` later, by when the other node has seen the link go.
    @Test func aLinkThatStaysDownCatchesUpAfterAWhile() async throws {
        try await TestCluster.with(2) { cluster in
            try await waitForCarriesAll(true, on: cluster.nodes)
            let bob = try await cluster.nodes[1].loggedIn("bob", device: "phone")
            let core = cluster.nodes[0].server.core
            _ = await cluster.nodes[0].server.onLoop { core.value.cluster.links?.stop() }
            try await storeWithoutNotice("lost", in: cluster)
            let started = ContinuousClock.now
            guard case .publish(let delivered)? = await bob.next(within: .seconds(15)) else { throw TestFailure("the lost message did not arrive") }
            #expect(try TextMessage.decode(delivered.payload).text == "lost")
            #expect(ContinuousClock.now - started > .seconds(2), "read at once: the link's loss was not what caught up")
        }
    }

    /// Stores a message from alice to bob as a node that sends its notices over links does,
    /// with no link to send it on: only a read of bob's queue finds it.
    private func storeWithoutNotice(_ text: String, in cluster: TestCluster) async throws {
        let connection = try PostgresConnection.connect(cluster.storeURL)
        defer { connection.close() }
        let message = NewMessage(appKey: TestServer.appKey, from: "alice", to: ["bob"], cid: "c-\(text)", text: text, sentAt: 1)
        _ = try PostgresServerStore.store([message], uids: ["u-\(text)"], quota: nil, node: "elsewhere", notify: false, on: connection)
    }

    private func waitForCarriesAll(_ carried: Bool, on nodes: [TestServer]) async throws {
        let deadline = ContinuousClock.now + .seconds(15)
        for node in nodes {
            while try await node.scrape()["imserver_cluster_links_carry_all"] != (carried ? 1 : 0) {
                guard ContinuousClock.now < deadline else { throw TestFailure("carry_all never became \(carried)") }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }

    private func growth(_ name: String, _ before: [String: Double], _ after: [String: Double]) -> Double {
        (after[name] ?? 0) - (before[name] ?? 0)
    }
}

/// A link peer written from imsh-protocol(7): lines over a raw TCP connection.
struct LinkProbe {
    let connection: Connection
    let name: String
    let secret: [UInt8]
    private var frames: InboundFrames.Iterator
    private var buffered: [UInt8] = []

    static func connect(_ address: SocketAddress, as name: String, secret: [UInt8]) async throws -> LinkProbe {
        let options = ConnectOptions(timeout: .seconds(5), connection: ConnectionOptions(framing: .raw))
        let connection = try await Connection.connect(to: address.host, port: address.port, options: options, on: MQTTTestClient.loops.next())
        return LinkProbe(connection: connection, name: name, secret: secret, frames: connection.frames().makeAsyncIterator())
    }

    /// Reads the node's hello, sends this side's hello and proof; returns whether the node then
    /// proved itself (false: it sent no proof, or a wrong one).
    mutating func proveAndVerify() async throws -> Bool {
        let hello = try #require(try await nextNotice()).jsonObject
        let challenge = try #require(hello["challenge"]?.stringValue), node = try #require(hello["node"]?.stringValue)
        let mine = "0123456789abcdef0123456789abcdef"
        try await send(#"{"link":1,"node":"\#(name)","challenge":"\#(mine)"}"#)
        try await send(#"{"proof":"\#(Self.proof(secret, challenge, name, "dialed"))"}"#)
        guard let answer = (try? await nextNotice()) ?? nil, let theirs = answer.jsonObject["proof"]?.stringValue else { return false }
        return theirs == Self.proof(secret, mine, node, "accepted")
    }

    /// The proof as imsh-protocol(7) writes it.
    private static func proof(_ secret: [UInt8], _ challenge: String, _ prover: String, _ side: String) -> String {
        Hex.encode(Crypto.hmacSHA256(key: secret, message: Array("imserver-link\n\(challenge)\n\(prover)\n\(side)\n".utf8)))
    }

    func ping() async throws { try await send("") }

    func send(_ line: String) async throws { try await connection.write(Array(line.utf8) + [0x0A]) }

    /// The next line that is not a ping; nil once the node closes the link.
    mutating func nextNotice() async throws -> [UInt8]? {
        while true {
            while let end = buffered.firstIndex(of: 0x0A) {
                let line = Array(buffered[..<end])
                buffered.removeFirst(end + 1)
                if !line.isEmpty { return line }
            }
            guard let frame = try await frames.next() else { return nil }
            buffered += frame
        }
    }
}

extension [UInt8] {
    fileprivate var jsonObject: JSONObject {
        (try? JSONValue(parsing: self))?.objectValue ?? JSONObject([])
    }
}
