import Dispatch
import IMStore
import IMTransport
import TestSupport
@testable import IMServer

/// A SQLite store in a temporary directory with device bob/phone registered, a loop, and a
/// message lane made on that loop.
final class LaneFixture: Sendable {
    let directory = TemporaryDirectory(prefix: "imsh-lane")
    let store: SQLiteServerStore
    let loop: EventLoop
    let lane: LoopBound<SQLiteMessageLane>

    init(lockPatience: Duration = .seconds(5), checkpointPages: Int = 4_000) async throws {
        store = try await SQLiteServerStore.open(directory: directory.path)
        _ = try await store.registerDevices([DeviceRegistration(appKey: "app", userID: "bob", deviceID: "phone", platform: .mobile)], now: 1)
        let loop = try EventLoop(name: "lane-test")
        self.loop = loop
        let store = self.store
        let made = await withCheckedContinuation { (continuation: CheckedContinuation<Result<LoopBound<SQLiteMessageLane>, ServerStoreError>, Never>) in
            loop.execute {
                continuation.resume(returning: Result { () throws(ServerStoreError) in
                    LoopBound(confined: try SQLiteMessageLane(store: store, loop: loop, lockPatience: lockPatience,
                                                               checkpointPages: checkpointPages), loop: loop)
                })
            }
        }
        lane = try made.get()
    }

    /// Bob's registered device.
    let device = DeviceKey(appKey: "app", userID: "bob", deviceID: "phone")

    /// Stores a message from alice to bob for each of `cids`, in one call; their message ids.
    func storedIDs(_ cids: [String]) async throws -> [Int64] {
        try await onLoop { lane, done in
            lane.store(cids.map { self.message($0) }, quota: nil) { done((try? $0.get())?.map(\.messageID) ?? []) }
        }
    }

    /// Makes every later insert of a message with text `text` (letters only) fail, from
    /// another connection, with the reason "`text` refused".
    func refuseMessages(withText text: String) throws {
        let probe = try Database(path: store.path)
        try probe.executeScript("""
            CREATE TRIGGER refuse_\(text) BEFORE INSERT ON message WHEN NEW.text = '\(text)'
            BEGIN SELECT RAISE(ABORT, '\(text) refused'); END
            """)
    }

    /// Stores each message in a call of its own, all in one turn; each call's outcome by name:
    /// "stored" or the failure's description.
    func storeInOneTurn(_ messages: [(name: String, message: NewMessage)]) async throws -> [String: String] {
        try await onLoop { lane, done in
            var outcomes: [String: String] = [:]
            for (name, message) in messages {
                lane.store([message], quota: nil) { result in
                    switch result {
                    case .success: outcomes[name] = "stored"
                    case .failure(let error): outcomes[name] = "\(error)"
                    }
                    if outcomes.count == messages.count { done(outcomes) }
                }
            }
        }
    }

    /// How many messages wait for bob's device, as another connection to the file sees it.
    func pendingCount() async throws -> Int {
        try await store.pendingCount(appKey: device.appKey, userID: device.userID, deviceID: device.deviceID)
    }

    /// A message from alice to bob with client id `cid`.
    func message(_ cid: String, text: String = "hello") -> NewMessage {
        NewMessage(appKey: "app", from: "alice", to: ["bob"], cid: cid, text: text, sentAt: 1_000)
    }

    /// Runs `body` on the loop with the lane; returns what it hands to `done` (on the loop),
    /// or fails once `limit` has passed without an answer.
    func onLoop<T: Sendable>(
        limit: Duration = .seconds(10), _ body: @escaping @Sendable (SQLiteMessageLane, @escaping (T) -> Void) -> Void
    ) async throws -> T {
        let lane = self.lane
        let loop = self.loop
        return try await withCheckedThrowingContinuation { continuation in
            loop.execute {
                var answered = false
                func answer(_ result: Result<T, any Error>) {
                    guard !answered else { return }
                    answered = true
                    continuation.resume(with: result)
                }
                loop.scheduleTimer(after: limit) { answer(.failure(LaneTimeout(limit: limit))) }
                body(lane.value) { answer(.success($0)) }
            }
        }
    }

    func stop() {
        let lane = self.lane
        let loop = self.loop
        let closed = DispatchSemaphore(value: 0)
        loop.execute {
            lane.value.close()
            closed.signal()
        }
        closed.wait()
        loop.shutdown()
    }
}

/// The lane did not answer within the test's limit.
struct LaneTimeout: Error {
    let limit: Duration
}
