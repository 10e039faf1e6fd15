import Foundation
@testable import IMServer
import TestSupport

/// Messages from alice to one device of bob on a test server, sent in steps so that at most a
/// step's worth waits for the device: the flood a busy account sees, at the pace it takes.
struct MessageFlood: Sendable {
    let server: TestServer
    let device: String
    /// Messages published per step, `concurrency` at a time.
    var step = 10_000
    var concurrency = 32

    /// Messages not yet acknowledged by the device.
    func pending() async throws -> Int {
        try await server.server.store.pendingCount(appKey: TestServer.appKey, userID: "bob", deviceID: device)
    }

    /// Waits until bob's device is online.
    func waitUntilOnline(within limit: Duration = .seconds(20)) async throws {
        let deadline = ContinuousClock.now + limit
        while await !server.server.backend.isOnline(appKey: TestServer.appKey, userID: "bob") {
            guard ContinuousClock.now < deadline else { throw TestFailure("bob never came online") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Publishes `flood 0` ... `flood count-1`; after each step waits until the device has taken
    /// all but `lag` of it, then calls `afterStep` with how many were sent.
    func run(count: Int, lag: Int = 2_000, afterStep: @Sendable (Int) async throws -> Void = { _ in }) async throws {
        var sent = 0
        while sent < count {
            let upper = min(count, sent + step)
            try await withThrowingTaskGroup(of: Void.self) { group in
                var next = sent
                func add() {
                    let index = next
                    next += 1
                    group.addTask {
                        _ = try await server.server.backend.publish(
                            appKey: TestServer.appKey, from: "alice", to: ["bob"], text: "flood \(index)")
                    }
                }
                for _ in 0..<min(concurrency, upper - sent) { add() }
                while try await group.next() != nil {
                    if next < upper { add() }
                }
            }
            sent = upper
            try await drain(below: lag)
            try await afterStep(sent)
        }
        try await drain(below: 1)
    }

    /// Waits until fewer than `limit` messages are pending, failing after a minute without progress.
    func drain(below limit: Int) async throws {
        var last = Int.max
        var stalledSince = ContinuousClock.now
        while true {
            let now = try await pending()
            if now < limit { return }
            if now < last {
                last = now
                stalledSince = ContinuousClock.now
            } else if ContinuousClock.now - stalledSince > .seconds(60) {
                throw TestFailure("\(now) messages stay pending")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The numbers N of every `flood N` in `text`, in order of appearance.
    static func numbers(in text: [UInt8], marker: String) -> [Int] {
        let pattern = Array(marker.utf8)
        var found: [Int] = []
        var index = 0
        while index + pattern.count <= text.count {
            guard text[index] == pattern[0], text[index..<(index + pattern.count)].elementsEqual(pattern) else {
                index += 1
                continue
            }
            index += pattern.count
            var value = 0
            var digits = 0
            while index < text.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(text[index]) {
                value = value * 10 + Int(text[index] - UInt8(ascii: "0"))
                digits += 1
                index += 1
            }
            if digits > 0 { found.append(value) }
        }
        return found
    }
}
