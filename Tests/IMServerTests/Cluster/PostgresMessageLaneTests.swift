import IMPostgres
import IMTransport
import Testing
import TestSupport
@testable import IMServer

/// The PostgreSQL lane's statements over several devices and senders at once (issue 42), and
/// the lane sending a turn's calls as one job.
@Suite(.timeLimit(.minutes(2)))
struct PostgresMessageLaneTests {
    private static func message(_ from: String, to: [String], cid: String) -> NewMessage {
        NewMessage(appKey: "app", from: from, to: to, cid: cid, text: "text of \(cid)", sentAt: 1)
    }

    private static func withStore(_ body: (PostgresServerStore) async throws -> Void) async throws {
        try await TestCluster.with(1) { cluster in
            let store = try await PostgresServerStore.open(url: cluster.storeURL, nodeName: "lane")
            _ = try await store.registerDevices(["phone", "pad"].map {
                DeviceRegistration(appKey: "app", userID: "bob", deviceID: $0, platform: .mobile)
            } + [DeviceRegistration(appKey: "app", userID: "carol", deviceID: "pc", platform: .pc)], now: 1)
            try await body(store)
            await store.close()
        }
    }

    /// Runs `body` on a loop of its own with a lane over `store`, and returns what it finishes with.
    private static func onLane(
        _ store: PostgresServerStore, holdingAcknowledgementsFor holdFor: Duration = PostgresMessageLane.acknowledgementDelay,
        _ body: @escaping @Sendable (PostgresMessageLane, EventLoop, @escaping @Sendable ([String]) -> Void) -> Void
    ) async throws -> [String] {
        let loop = try EventLoop(name: "lane-test")
        defer { loop.shutdown() }
        return await withCheckedContinuation { continuation in
            loop.execute {
                let lane = PostgresMessageLane(store: store, loop: loop, holdingAcknowledgementsFor: holdFor)
                // As the broker does, something holds the lane: here whatever holds the finish.
                let held = LoopBound(confined: lane, loop: loop)
                body(lane, loop) { answers in
                    withExtendedLifetime(held) { continuation.resume(returning: answers) }
                }
            }
        }
    }

    /// The lane's jobs so far and the calls they carried.
    private static func jobs(_ lane: PostgresMessageLane) -> String {
        "jobs \(lane.commitStatistics.batchSizes.count), calls \(Int(lane.commitStatistics.batchSizes.sum))"
    }

    /// Both devices of one message acknowledged in one statement: the message has left its
    /// last queue, so its sender's usage drops (each device's "other queues" include the other's
    /// entry as it was before the statement, which the statement removes too).
    @Test func oneMessageAcknowledgedByTwoDevicesInOneStatementFreesItsSendersUsage() async throws {
        try await Self.withStore { store in
            let stored = try await store.storeMessages([Self.message("alice", to: ["bob"], cid: "c1")], quota: QueueQuota())
            #expect(try await store.queuedUsage(appKey: "app", userID: "alice").messages == 1)
            let id = stored[0].messageID
            let phone = DeviceKey(appKey: "app", userID: "bob", deviceID: "phone"), pad = DeviceKey(appKey: "app", userID: "bob", deviceID: "pad")
            let counts = try await store.pool.run { try PostgresServerStore.acknowledge([(phone, [id]), (pad, [id, id + 100])], on: $0) }
            #expect(counts == [1, 1])
            #expect(try await store.queuedUsage(appKey: "app", userID: "alice") == QueueUsage(messages: 0, bytes: 0))
            #expect(try await store.queuedDeliveryCount() == 0)
        }
    }

    /// A message another user's device still waits for keeps its sender's usage, however many
    /// of its entries one statement removes; the other's acknowledgement then frees it.
    @Test func aMessageStillQueuedElsewhereKeepsItsSendersUsage() async throws {
        try await Self.withStore { store in
            let stored = try await store.storeMessages([Self.message("alice", to: ["bob"], cid: "c1"),
                                                        Self.message("alice", to: ["bob", "carol"], cid: "c2")], quota: QueueQuota())
            let ids = stored.map(\.messageID)
            let phone = DeviceKey(appKey: "app", userID: "bob", deviceID: "phone"), pad = DeviceKey(appKey: "app", userID: "bob", deviceID: "pad")
            let counts = try await store.pool.run { try PostgresServerStore.acknowledge([(phone, ids), (pad, ids)], on: $0) }
            #expect(counts == [2, 2])
            #expect(try await store.queuedUsage(appKey: "app", userID: "alice") == QueueUsage(messages: 1, bytes: 10))
            let carol = DeviceKey(appKey: "app", userID: "carol", deviceID: "pc")
            let last = try await store.pool.run { try PostgresServerStore.acknowledge([(carol, [ids[1]]), (phone, [ids[1]])], on: $0) }
            #expect(last == [1, 0])
            #expect(try await store.queuedUsage(appKey: "app", userID: "alice") == QueueUsage(messages: 0, bytes: 0))
        }
    }

    /// Several devices' queues in one read, each to its own limit and past its own id.
    @Test func oneReadAnswersEachDeviceWithinItsLimit() async throws {
        try await Self.withStore { store in
            let stored = try await store.storeMessages((1...3).map { Self.message("alice", to: ["bob", "carol"], cid: "c\($0)") }, quota: nil)
            let ids = stored.map(\.messageID)
            let reads = [
                QueueReadRequest(device: DeviceKey(appKey: "app", userID: "bob", deviceID: "phone"), after: 0, limit: 2),
                QueueReadRequest(device: DeviceKey(appKey: "app", userID: "carol", deviceID: "pc"), after: ids[0], limit: 10),
                QueueReadRequest(device: DeviceKey(appKey: "app", userID: "nobody", deviceID: "x"), after: 0, limit: 10),
                QueueReadRequest(device: DeviceKey(appKey: "app", userID: "bob", deviceID: "pad"), after: ids[2], limit: 10),
            ]
            let answers = try await store.pool.run { try PostgresServerStore.pending(reads, on: $0) }
            #expect(answers.map { $0.map(\.messageID) } == [Array(ids[0...1]), Array(ids[1...2]), [], []])
            #expect(answers[0].map(\.cid) == ["c1", "c2"])
        }
    }

    /// Messages of several senders in one statement come back in the callers' order, each
    /// sender's in its own, and a sender's quota counts only its own messages.
    @Test func storesOfSeveralSendersAnswerInTheirOrder() async throws {
        try await Self.withStore { store in
            let messages = [Self.message("zed", to: ["bob"], cid: "z1"), Self.message("alice", to: ["bob"], cid: "a1"),
                            Self.message("zed", to: ["carol"], cid: "z2"), Self.message("alice", to: ["carol"], cid: "a2"),
                            Self.message("alice", to: ["carol"], cid: "a3")]
            let results = try await store.storeMessages(messages, quota: QueueQuota(messages: 2, bytes: 1 << 20))
            let rows = try await store.pool.run { connection in
                try connection.execute("SELECT id, cid FROM message ORDER BY id").rows.map { ($0[0].int64 ?? 0, $0[1].string ?? "") }
            }
            #expect(rows.map(\.1) == ["a1", "a2", "z1", "z2"], "stored in the order of their senders, each sender's in its order")
            let cids = Dictionary(uniqueKeysWithValues: rows)
            #expect(results.prefix(4).map { cids[$0.messageID] } == ["z1", "a1", "z2", "a2"], "answered in the callers' order")
            #expect(results.map { $0.overQuota == nil } == [true, true, true, true, false], "alice's third is over her quota of 2")
        }
    }

    /// A sender's messages in one statement are counted together when they fit the quota
    /// together, one by one when they do not, and a resend among them gives its count back.
    @Test func aSendersMessagesInOneStatementCountAsTheyWouldOneByOne() async throws {
        try await Self.withStore { store in
            let quota = QueueQuota(messages: 5, bytes: 1 << 20)
            let first = try await store.storeMessages((1...3).map { Self.message("alice", to: ["bob"], cid: "c\($0)") }, quota: quota)
            #expect(first.map(\.isDuplicate) == [false, false, false])
            #expect(try await store.queuedUsage(appKey: "app", userID: "alice") == QueueUsage(messages: 3, bytes: 30))
            let again = try await store.storeMessages(["c3", "c4"].map { Self.message("alice", to: ["bob"], cid: $0) }, quota: quota)
            #expect(again.map(\.isDuplicate) == [true, false])
            #expect(try await store.queuedUsage(appKey: "app", userID: "alice") == QueueUsage(messages: 4, bytes: 40))
            let over = try await store.storeMessages(["c5", "c6"].map { Self.message("alice", to: ["bob"], cid: $0) }, quota: quota)
            #expect(over.map { $0.overQuota == nil } == [true, false], "the fifth fits, the sixth is over the quota of 5")
            #expect(try await store.queuedUsage(appKey: "app", userID: "alice") == QueueUsage(messages: 5, bytes: 50))
            _ = try await store.storeMessages(["z1", "z2"].map { Self.message("zed", to: ["bob"], cid: $0) } + [Self.message("zoe", to: ["bob"], cid: "y1")], quota: nil)
            #expect(try await store.queuedUsage(appKey: "app", userID: "zed") == QueueUsage(messages: 2, bytes: 20))
            #expect(try await store.queuedUsage(appKey: "app", userID: "zoe") == QueueUsage(messages: 1, bytes: 10))
        }
    }

    /// Calls made in one turn of the loop go to PostgreSQL as one job, and each caller gets its
    /// own answer.
    @Test func aTurnsCallsRunAsOneJob() async throws {
        try await Self.withStore { store in
            let bob = DeviceKey(appKey: "app", userID: "bob", deviceID: "phone")
            let answers = try await Self.onLane(store) { lane, _, finish in
                var answers: [String] = []
                func answered(_ text: String) {
                    answers.append(text)
                    guard answers.count == 4 else { return }
                    answers.append(Self.jobs(lane))
                    finish(answers.sorted())
                }
                lane.store([Self.message("alice", to: ["bob"], cid: "a")], quota: nil) { answered("alice \((try? $0.get())?.count ?? -1)") }
                lane.store([Self.message("zed", to: ["bob"], cid: "z")], quota: nil) { answered("zed \((try? $0.get())?.count ?? -1)") }
                lane.pending(bob, after: 0, limit: 10) { answered("read \((try? $0.get())?.messages.map(\.cid) ?? [])") }
                lane.acknowledge(bob, messageIDs: [999]) { answered("acknowledged \((try? $0.get()) ?? -1)") }
            }
            // The stores ran before the read in the same job, so the read finds both.
            #expect(answers == ["acknowledged 0", "alice 1", "jobs 1, calls 4", "read [\"a\", \"z\"]", "zed 1"])
        }
    }

    /// Acknowledgements are held back and go together in a job of their own, not with the
    /// stores made meanwhile.
    @Test func acknowledgementsAreHeldBackAndGoTogether() async throws {
        try await Self.withStore { store in
            let bob = DeviceKey(appKey: "app", userID: "bob", deviceID: "phone"), carol = DeviceKey(appKey: "app", userID: "carol", deviceID: "pc")
            let answers = try await Self.onLane(store, holdingAcknowledgementsFor: .milliseconds(20)) { lane, _, finish in
                var answers: [String] = []
                func answered(_ text: String) {
                    answers.append(text)
                    if answers.count == 1 { answers.append(Self.jobs(lane)) }
                    if answers.count == 4 {
                        answers.append(Self.jobs(lane))
                        finish(answers)
                    }
                }
                lane.acknowledge(bob, messageIDs: [999]) { answered("bob \((try? $0.get()) ?? -1)") }
                lane.acknowledge(carol, messageIDs: [998]) { answered("carol \((try? $0.get()) ?? -1)") }
                lane.store([Self.message("alice", to: ["bob"], cid: "a")], quota: nil) { answered("alice \((try? $0.get())?.count ?? -1)") }
            }
            #expect(answers.prefix(2) == ["alice 1", "jobs 1, calls 1"])
            #expect(answers.dropFirst(2).prefix(2).sorted() == ["bob 0", "carol 0"])
            #expect(answers.last == "jobs 2, calls 3")
        }
    }

    /// A device's held acknowledgements go at once when its connection ends (its next one may
    /// read its queue on another node) or when its queue is read.
    @Test func heldAcknowledgementsGoWhenTheirConnectionEndsOrTheirQueueIsRead() async throws {
        try await Self.withStore { store in
            let bob = DeviceKey(appKey: "app", userID: "bob", deviceID: "phone"), carol = DeviceKey(appKey: "app", userID: "carol", deviceID: "pc")
            let stored = try await store.storeMessages([Self.message("alice", to: ["bob", "carol"], cid: "a")], quota: nil)
            let id = stored[0].messageID
            // Held for a minute: only the two events can send them within the watchdog's time.
            let answers = try await Self.onLane(store, holdingAcknowledgementsFor: .seconds(60)) { lane, loop, finish in
                var answers: [String] = []
                var done = false
                func answered(_ text: String) {
                    guard !done else { return }
                    answers.append(text)
                    if answers.count == 3 { done = true; finish(answers) }
                }
                _ = loop.scheduleTimer(after: .seconds(30)) {
                    guard !done else { return }
                    done = true
                    finish(answers + ["watchdog"])
                }
                lane.acknowledge(bob, messageIDs: [id]) { result in
                    answered("bob \((try? result.get()) ?? -1)")
                    lane.acknowledge(carol, messageIDs: [id]) { answered("carol \((try? $0.get()) ?? -1)") }
                    lane.pending(carol, after: 0, limit: 10) { answered("read \((try? $0.get())?.messages.count ?? -1)") }
                }
                lane.connectionEnded(bob)
            }
            #expect(answers == ["bob 1", "carol 1", "read 0"])
        }
    }

    /// The lane's own connection comes back by itself: ended by the server while idle, the
    /// next job runs on a fresh one; while PostgreSQL is down a job fails as unavailable, and
    /// once it is back the next one succeeds.
    @Test func theLanesConnectionComesBackAfterItIsEndedOrPostgresIsAway() async throws {
        try await TestCluster.with(1) { cluster in
            let store = try await PostgresServerStore.open(url: cluster.storeURL, nodeName: "lane")
            _ = try await store.registerDevices([DeviceRegistration(appKey: "app", userID: "bob", deviceID: "phone", platform: .mobile)], now: 1)
            let loop = try EventLoop(name: "lane-test")
            defer { loop.shutdown() }
            let lane = await withCheckedContinuation { continuation in
                loop.execute { continuation.resume(returning: LoopBound(confined: PostgresMessageLane(store: store, loop: loop), loop: loop)) }
            }
            /// Stores one message through the lane: "stored", or the error's kind.
            func send(_ cid: String) async -> String {
                await withCheckedContinuation { continuation in
                    loop.execute {
                        lane.value.store([Self.message("alice", to: ["bob"], cid: cid)], quota: nil) { result in
                            switch result {
                            case .success(let stored): continuation.resume(returning: stored.first?.isDuplicate == false ? "stored" : "duplicate")
                            case .failure(ServerStoreError.unavailable): continuation.resume(returning: "unavailable")
                            case .failure(let error): continuation.resume(returning: "\(error)")
                            }
                        }
                    }
                }
            }
            #expect(await send("1") == "stored")
            let ended = try await store.pool.run { connection in
                try connection.execute("""
                    SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                    WHERE application_name = 'imserver' AND pid <> pg_backend_pid() AND backend_type = 'client backend'
                    """).rows.first?[0].int64 ?? 0
            }
            #expect(ended >= 2, "the lane's connection and the node's")
            #expect(await send("2") == "stored")
            cluster.postgres.stop()
            #expect(await send("3") == "unavailable")
            try cluster.postgres.restart()
            #expect(await send("4") == "stored")
            let queued = try await store.pendingCount(appKey: "app", userID: "bob", deviceID: "phone")
            #expect(queued == 3)
            loop.execute { lane.value.close() }
            await store.close()
        }
    }
}
