import Foundation
import IMJSON
import Testing
import TestSupport

/// The `imsh` executable left running against a stock mosquitto that is killed and started
/// again on its port: the events say each wait of the backoff schedule, from its start, and
/// the account is connected again by itself; a message sent while the broker was down goes out
/// once it is back.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct MosquittoRestartShellTests {
    @Test func imshShowsTheScheduleAndReconnectsAfterTheBrokerIsKilledAndRestarted() async throws {
        let (broker, directory, _) = try MosquittoProfileTests.broker()
        defer { withExtendedLifetime(directory) { broker.stop() } }
        let sandbox = Sandbox(shipped: false)
        sandbox.write("""
            {"appKey": "\(MosquittoProfileTests.appKey)", "server": "mqtt://127.0.0.1:\(broker.port)",
             "accounts": {"alice": {"token": "\(try MosquittoProfileTests.token("alice"))", "deviceId": "phone-alice"}}}
            """, to: "profiles/stock.json")
        let imsh = try RunningImsh(sandbox, ["--json"], name: "restart")
        try imsh.send("connect stock/alice")
        try await Self.waitFor(imsh, "connected", count: 1)

        broker.end(with: SIGKILL)
        try await Self.waitFor(imsh, "connecting", count: 1)
        try imsh.send("send stock/alice bob while-down")
        try await Task.sleep(for: .seconds(1))
        try broker.restart()
        try await Self.waitFor(imsh, "connected", count: 2)
        try imsh.send("quit")
        _ = try await imsh.finish(within: .seconds(10))

        let events = Self.objects(imsh.output).filter { $0.string("type") == "event" }
        let waits = events.filter { $0.string("event") == "retry" }.compactMap { event -> Double? in
            switch event["inSeconds"] {
            case .double(let seconds)?: seconds
            case .integer(let seconds)?: Double(seconds)
            default: nil
            }
        }
        #expect(!waits.isEmpty && waits == Array([0.05, 0.25, 0.5, 1, 2, 4].prefix(waits.count)), "\(waits)")
        // The broker, started again, received the message sent while it was down.
        #expect(broker.output.contains("Received PUBLISH from phone-alice"), "\(broker.output)")
    }

    /// Every line of imsh's output that is a JSON object.
    static func objects(_ output: String) -> [JSONObject] {
        output.split(separator: "\n").compactMap { (try? JSONValue(parsing: String($0)))?.objectValue }
    }

    /// Waits until imsh has reported `status` for the account `count` times.
    static func waitFor(_ imsh: RunningImsh, _ status: String, count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(15)
        while ContinuousClock.now < deadline {
            let seen = objects(imsh.output).filter { $0.string("event") == "status" && $0.string("status") == status }
            if seen.count >= count { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestFailure("imsh did not report \(status) \(count) times within 15 s: \(imsh.output)")
    }
}
