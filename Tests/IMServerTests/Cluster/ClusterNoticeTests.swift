@testable import IMServer
import Testing

/// The notices nodes exchange through NOTIFY, as `PostgresStoreFunction` writes them and as a
/// node older than the message and the chain in them reads them (issue 42).
struct ClusterNoticeTests {
    @Test func aDeliverNoticeCarriesTheMessageAndEachDevicesChain() throws {
        let message = QueuedMessage(messageID: 42, uid: "u42", from: "alice", to: ["bob", "carol"], text: "hi \"bob\"", cid: "c1", sentAt: 7)
        let notice = ClusterNotice(node: "a", event: .deliver(
            appKey: "k", [Delivery(userID: "bob", deviceID: "phone", previous: 41), Delivery(userID: "carol", deviceID: "web", previous: 0)],
            message: message, at: 1_764_410_000_123_456))
        #expect(try ClusterNotice(parsing: notice.encoded()) == notice)
    }

    /// PostgreSQL's jsonb writes spaces after separators and orders keys its own way.
    @Test func theStoreFunctionsLayoutIsRead() throws {
        let payload = """
            {"at": 5, "app": "k", "node": "b", "event": "deliver", "devices": [["bob", "phone"]], "message": {"id": 9, "to": ["bob"], \
            "cid": "c", "uid": "u", "from": "al", "sent": 3, "text": "t"}, "previous": [8]}
            """
        let notice = try ClusterNotice(parsing: payload)
        #expect(notice.event == .deliver(appKey: "k", [Delivery(userID: "bob", deviceID: "phone", previous: 8)],
                                         message: QueuedMessage(messageID: 9, uid: "u", from: "al", to: ["bob"], text: "t", cid: "c", sentAt: 3),
                                         at: 5))
    }

    /// A notice without a chain or a message (an older node's, or a message too long for
    /// the payload) still wakes the devices, which then read their queues.
    @Test func aNoticeWithoutMessageOrChainStillNamesTheDevices() throws {
        let notice = try ClusterNotice(parsing: #"{"node":"a","event":"deliver","app":"k","devices":[["bob","phone"]]}"#)
        #expect(notice.event == .deliver(appKey: "k", [Delivery(userID: "bob", deviceID: "phone")], message: nil, at: 0))
    }

    /// A node drops its own notices by their first bytes, unparsed: the layout it writes
    /// starts with them, another node's does not, even one whose name starts the same (the
    /// store function's layout: `ClusterDeliveryTests`).
    @Test func aNodesOwnNoticesStartWithItsPrefix() {
        let login = ClusterEvent.login(sequence: 7, appKey: "k", userID: "u", deviceID: "d", platform: "mobile")
        let own = ClusterNotice.prefix(of: "a1")
        #expect(ClusterNotice(node: "a1", event: login).encoded().utf8.starts(with: own))
        #expect(!ClusterNotice(node: "a12", event: login).encoded().utf8.starts(with: own))
        #expect(!ClusterNotice(node: "a", event: login).encoded().utf8.starts(with: own))
    }

    @Test(arguments: [
        #"{"node":"a","event":"deliver","app":"k","devices":[["bob","phone"]],"previous":[1,2]}"#,
        #"{"node":"a","event":"deliver","app":"k","devices":[["bob","phone"]],"previous":["1"]}"#,
        #"{"node":"a","event":"deliver","app":"k","devices":[["bob","phone"]],"message":{"id":1}}"#,
        #"{"node":"a","event":"deliver","app":"k","devices":[["bob","phone"]],"message":{"id":1,"uid":"u","from":"f","to":[3],"text":"t","cid":"c","sent":1}}"#,
    ])
    func aMalformedDeliverNoticeIsRefused(payload: String) {
        #expect(throws: ClusterNoticeError.self) { try ClusterNotice(parsing: payload) }
    }

    /// A node that sends its notices over links writes them as the store function would: for a
    /// busy node's batch (more than `inlineBatchLimit` messages) one per app naming the devices,
    /// whatever order the callers' messages of two apps came in.
    @Test func aLargeBatchHasOneNoticePerApp() {
        var batch = PostgresLaneBatch()
        var results: [StoredMessageResult] = []
        for index in 0..<10 {
            let app = index % 2 == 0 ? "k1" : "k2"
            let message = NewMessage(appKey: app, from: "alice", to: ["bob"], cid: "c\(index)", text: "t", sentAt: 1)
            _ = batch.store([message], uids: ["u\(index)"], quota: nil)
            results.append(StoredMessageResult(uid: "u\(index)", messageID: Int64(index + 1), sentAt: 1, isDuplicate: false,
                                               deliveries: [Delivery(userID: "bob", deviceID: "phone-\(index)", previous: Int64(index))]))
        }
        let outcome = PostgresLaneBatch.Outcome(stores: [.success(results)], acknowledgements: nil, reads: nil)
        let notices = batch.notices(outcome, node: "a", at: 9)
        let phones = { (from: Int) in stride(from: from, to: 10, by: 2).map { Delivery(userID: "bob", deviceID: "phone-\($0)") } }
        #expect(notices == [ClusterNotice(node: "a", event: .deliver(appKey: "k1", phones(0), message: nil, at: 9)),
                            ClusterNotice(node: "a", event: .deliver(appKey: "k2", phones(1), message: nil, at: 9))])
    }
}
