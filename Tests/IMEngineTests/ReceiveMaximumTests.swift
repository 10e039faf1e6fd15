import IMEngine
import MQTT
import Testing
import TestSupport

/// The server's Receive Maximum bounds the engine's unacknowledged PUBLISHes (MQTT-3.3.4-7):
/// what is past it waits for a PUBACK, in order, and nothing is lost.
@Suite(.timeLimit(.minutes(1)))
struct ReceiveMaximumTests {
    @Test func publishesBeyondTheServersReceiveMaximumWaitForItsAcknowledgements() async throws {
        var script = ScriptedBroker.Script()
        script.connack = { _, connect in
            var connack = ScriptedBroker.accept(connect)
            connack.properties.receiveMaximum = 2
            return connack
        }
        // The test acknowledges by hand, one at a time.
        script.publishAcknowledgement = { _, _ in nil }
        try await withBroker(script) { broker, test in
            let session = test.session()
            _ = try await session.connect()
            let reports = await session.sendReports()
            for number in 0..<5 { _ = try await session.send(text: "m\(number)", to: "bob") }
            #expect(await eventually { broker.publishes.count == 2 })
            try await Task.sleep(for: .milliseconds(300))
            #expect(broker.publishes.count == 2, "two at most before any PUBACK")
            var iterator = reports.makeAsyncIterator()
            for acknowledged in 0..<5 {
                let publish = broker.publishes[acknowledged]
                broker.send(.puback(PubAck(packetIdentifier: publish.packetIdentifier)), on: 0)
                let report = await iterator.next()
                #expect(report?.reasonCode == .success)
                let expected = min(5, acknowledged + 3)
                #expect(await eventually { broker.publishes.count == expected }, "after \(acknowledged + 1) PUBACKs")
            }
            let texts = broker.publishes.map { String(decoding: $0.payload, as: UTF8.self) }
            #expect(texts.enumerated().allSatisfy { $0.element.contains("\"m\($0.offset)\"") }, "in the order sent: \(texts)")
            await session.close()
        }
    }
}
