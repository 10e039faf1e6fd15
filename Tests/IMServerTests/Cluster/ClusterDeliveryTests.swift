import IMPostgres
import IMProtocol
import MQTT
import Synchronization
import Testing
import TestSupport
@testable import IMServer

/// Messages crossing nodes go out from the store's notice, without a read of the recipient's
/// queue, when the device's chain shows nothing missing before them; a gap in the chain is
/// read, never skipped (issue 42).
@Suite(.timeLimit(.minutes(1)))
struct ClusterDeliveryTests {
    @Test func messagesCrossingNodesAreSentWithoutReadingTheQueue() async throws {
        try await TestCluster.with(2) { cluster in
            let receiving = cluster.nodes[1]
            let bob = try await receiving.loggedIn("bob", device: "phone")
            let alice = try await cluster.nodes[0].loggedIn("alice", device: "phone")
            // Bob's first look at his queue is over once a message gets through.
            try await TestCluster.exchange(1, from: alice, to: bob)
            let before = try await receiving.scrape()
            let count = 10
            try await TestCluster.exchange(count, from: alice, to: bob, first: 2)
            let after = try await receiving.scrape()
            let reads = (after["imserver_queue_reads_total"] ?? 0) - (before["imserver_queue_reads_total"] ?? 0)
            // Before the chain, each notice and each PUBACK read the queue: 2 reads a message.
            #expect(reads <= 1, "\(reads) queue reads for \(count) messages")
            let delays = (after["imserver_cluster_notice_delay_seconds_count"] ?? 0)
                - (before["imserver_cluster_notice_delay_seconds_count"] ?? 0)
            #expect(delays == Double(count))
        }
    }

    /// A batch larger than the notices carry (a busy node's) names the devices only: the
    /// receiving node reads the queue, and still times the notice.
    @Test func aLargerBatchWakesTheDeviceToReadItsQueue() async throws {
        try await TestCluster.with(1) { cluster in
            let receiving = cluster.nodes[0]
            let bob = try await receiving.loggedIn("bob", device: "phone")
            let before = try await receiving.scrape()
            // Another node's store, as a busy node's lane stores a turn's messages.
            let count = PostgresStoreFunction.inlineBatchLimit + 1
            try await storeElsewhere(count, in: cluster)
            var texts: [String] = []
            while texts.count < count, case .publish(let delivered)? = await bob.next(within: .seconds(3)) {
                texts.append(try TextMessage.decode(delivered.payload).text)
            }
            #expect(texts == (1...count).map { "m\($0)" })
            let after = try await receiving.scrape()
            #expect((after["imserver_queue_reads_total"] ?? 0) > (before["imserver_queue_reads_total"] ?? 0))
            #expect((after["imserver_cluster_notice_delay_seconds_count"] ?? 0)
                    == (before["imserver_cluster_notice_delay_seconds_count"] ?? 0) + 1)
        }
    }

    /// The store function's notice of a small batch starts as `ClusterNotice.encoded()` does,
    /// so the storing node drops it unparsed (`ClusterNotice.prefix(of:)`).
    @Test func aStoredMessagesNoticeStartsWithItsNodesPrefix() async throws {
        try await TestCluster.with(1) { cluster in
            _ = try await cluster.nodes[0].loggedIn("bob", device: "phone")
            let payloads = Mutex<[String]>([])
            let listener = PostgresListener(conninfo: cluster.storeURL, channel: PostgresServerStore.channel, onConnected: {}) { payload in
                payloads.withLock { $0.append(payload) }
            }
            defer { listener.stop() }
            // The listener's LISTEN is not awaited: stores go on until one's notice is heard.
            var stored = 0
            while payloads.withLock(\.isEmpty) && stored < 50 {
                stored += 1
                try await storeElsewhere(1, in: cluster, first: stored)
                try await Task.sleep(for: .milliseconds(50))
            }
            let heard = payloads.withLock { $0 }
            #expect(!heard.isEmpty)
            for payload in heard {
                #expect(payload.utf8.starts(with: ClusterNotice.prefix(of: "busy")), "\(payload)")
                #expect(!payload.utf8.starts(with: ClusterNotice.prefix(of: "bus")))
            }
        }
    }

    /// A PUBACK that arrives while the device's queue is being read asks for no other read:
    /// the read under way reads on by itself if it fills the window. Asking for one kept the
    /// connections of a busy cluster reading, one read after another.
    @Test func anAcknowledgementDuringAReadAsksForNoOtherRead() async throws {
        try await TestCluster.with(1) { cluster in
            let receiving = cluster.nodes[0]
            let bob = try await receiving.loggedIn("bob", device: "phone")
            let count = PostgresStoreFunction.inlineBatchLimit + 1
            try await storeElsewhere(count, in: cluster)
            var delivered: [UInt16] = []
            while delivered.count < count, case .publish(let publish)? = await bob.next(within: .seconds(3)) {
                delivered.append(publish.packetIdentifier)
            }
            #expect(delivered.count == count)
            let holder = try PostgresConnection.connect(cluster.storeURL)
            // Polled only from this task, between its own steps.
            nonisolated(unsafe) let watcher = try PostgresConnection.connect(cluster.storeURL)
            defer {
                holder.close()
                watcher.close()
            }
            // The next read of bob's queue waits for this lock while his PUBACKs arrive. The
            // holder idles in its transaction meanwhile, for longer than a node's connection may
            // when the machine is busy (PostgresConnection.idleInTransactionTimeout).
            _ = try holder.execute("SET idle_in_transaction_session_timeout = 0")
            _ = try holder.execute("BEGIN")
            _ = try holder.execute("LOCK TABLE message IN ACCESS EXCLUSIVE MODE")
            let before = try await receiving.scrape()
            let wakeUp = ClusterNotice(node: "busy", event: .deliver(
                appKey: TestServer.appKey, [Delivery(userID: "bob", deviceID: "phone")], message: nil, at: 0))
            _ = try watcher.execute("SELECT pg_notify($1, $2)", [.text(PostgresServerStore.channel), .text(wakeUp.encoded())])
            #expect(await eventually { // the read of bob's queue waits for the lock
                (try? watcher.execute("SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%SELECT r.k%'").rows.isEmpty) == false
            })
            for packetID in delivered { try await bob.send(.puback(PubAck(packetIdentifier: packetID))) }
            let acknowledged = (before["imserver_messages_acknowledged_total"] ?? 0) + Double(count)
            #expect(await eventually { (try? await receiving.scrape())?["imserver_messages_acknowledged_total"] == acknowledged })
            _ = try holder.execute("COMMIT")
            #expect(await eventually { (try? watcher.execute("SELECT count(*) FROM queue").rows.first?[0].int64) == 0 })
            // A turn of the node's loop after the read's answer, which came before the PUBACKs' job.
            try await bob.send(.pingreq)
            #expect(await bob.next() == .pingresp)
            let reads = try await receiving.scrape()["imserver_queue_reads_total"] ?? 0
            #expect(reads == (before["imserver_queue_reads_total"] ?? 0) + 1)
            #expect(await bob.next(within: .milliseconds(200)) == nil)
        }
    }

    /// Three senders, one on the recipient's node (its stores are answered there, in an order
    /// of their own against the other nodes' notices) and two elsewhere, send at once: every
    /// message reaches the recipient once.
    @Test func messagesFromEveryNodeAtOnceAllArriveOnce() async throws {
        try await TestCluster.with(3) { cluster in
            let bob = try await cluster.nodes[1].loggedIn("bob", device: "phone")
            let senders = [
                try await cluster.nodes[0].loggedIn("alice", device: "phone"),
                try await cluster.nodes[1].loggedIn("carol", device: "phone"),
                try await cluster.nodes[2].loggedIn("dave", device: "phone"),
            ]
            let perSender = 30
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, sender) in senders.enumerated() {
                    group.addTask {
                        for number in 1...perSender {
                            let code = try await sender.sendText("\(index)-\(number)", to: "bob", cid: "c\(number)", packetID: UInt16(number))
                            #expect(code == .success)
                        }
                    }
                }
                var texts: [String] = []
                while texts.count < senders.count * perSender {
                    guard case .publish(let delivered)? = await bob.next(within: .seconds(5)) else { break }
                    texts.append(try TextMessage.decode(delivered.payload).text)
                    try await bob.send(.puback(PubAck(packetIdentifier: delivered.packetIdentifier)))
                }
                try await group.waitForAll()
                #expect(texts.count == senders.count * perSender)
                #expect(Set(texts).count == texts.count, "duplicates among \(texts.count)")
                // Each sender's messages in the order sent.
                for index in senders.indices {
                    let mine = texts.filter { $0.hasPrefix("\(index)-") }
                    #expect(mine == (1...perSender).map { "\(index)-\($0)" })
                }
            }
            #expect(await bob.next(within: .milliseconds(300)) == nil)
        }
    }

    /// Stores `count` messages (numbered from `first`) from alice to bob in one batch of another
    /// node's ("busy"), more than its notice carries when over `PostgresStoreFunction.inlineBatchLimit`.
    private func storeElsewhere(_ count: Int, in cluster: TestCluster, first: Int = 1) async throws {
        let other = try await PostgresServerStore.open(url: cluster.storeURL, nodeName: "busy")
        _ = try await other.storeMessages((first..<first + count).map {
            NewMessage(appKey: TestServer.appKey, from: "alice", to: ["bob"], cid: "c\($0)", text: "m\($0)", sentAt: 1)
        }, quota: nil)
        await other.close()
    }
}
