import IMEngine
import MQTT
import Testing

/// The server's Maximum Packet Size (CONNACK) against a message too big for it.
@Suite(.timeLimit(.minutes(1)))
struct MessageLimitIntegrationTests {
    @Test func aMessageOverTheServersPacketLimitFailsAloneAndTheSessionStaysUp() async throws {
        try await withIntegration { harness in
            let sender = try await harness.session("alice", device: "phone-alice", on: harness.engine())
            let receiver = try await harness.session("bob", device: "phone-bob", on: harness.engine())
            let reports = await sender.sendReports()
            _ = try await sender.connect()
            _ = try await receiver.connect()

            let big = try await sender.send(text: String(repeating: "x", count: 300 * 1024), to: "bob")
            let small = try await sender.send(text: "small", to: "bob")
            var iterator = reports.makeAsyncIterator()
            var answers: [String: SendReport] = [:]
            while answers.count < 2, let report = await iterator.next() { answers[report.cid] = report }
            #expect(answers[big.cid ?? ""]?.reasonCode == .packetTooLarge)
            #expect(answers[small.cid ?? ""]?.isAccepted == true)

            try await Task.sleep(for: .milliseconds(300))
            #expect(await sender.statuses == [.connecting, .connected])
            #expect(try await sender.pendingOutgoing().isEmpty)
            let sent = try await sender.history(peer: "bob")
            #expect(sent.first { $0.cid == big.cid }?.state == .failed)
            #expect(try await receiver.history(peer: "alice").map(\.text) == ["small"])
        }
    }
}
