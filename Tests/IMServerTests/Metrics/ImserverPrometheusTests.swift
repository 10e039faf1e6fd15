import Foundation
import IMHTTP
import IMHTTPClient
import IMProcess
import IMProtocol
import MQTT
import Synchronization
import Testing
import TestSupport

/// imserver's `/metrics` as a real Prometheus scrapes it and promtool checks it; the metrics
/// port's failure at start. Heavy: imserver and Prometheus processes (scripts/test runs it alone).
@Suite(.timeLimit(.minutes(2)))
struct ImserverPrometheusTests {
    @Test func prometheusScrapesImserverAndSeesMessagesDelivered() async throws {
        let directory = TemporaryDirectory()
        let server = try await ImserverProcess.start(dataDirectory: directory.path + "/data", extra: ["--metrics-listen", "127.0.0.1:0"])
        let metrics = try #require(server.listening["metrics"])
        let prometheus = try StockPrometheus(directory: directory.path, target: metrics)
        #expect(await eventually(within: .seconds(30)) { await prometheus.value(of: "up") == "1" })

        let alice = try await login("alice", port: server.mqttPort)
        let bob = try await login("bob", port: server.mqttPort)
        // Messages keep flowing until Prometheus has seen their rate: bob acknowledges each.
        let sent = Atomic<Int>(0)
        let load = Task {
            var packetID: UInt16 = 0
            while !Task.isCancelled {
                packetID &+= 1
                guard try await alice.sendText("m\(packetID)", to: "bob", cid: "c\(packetID)", packetID: max(packetID, 1)) == .success,
                      case .publish(let delivery)? = await bob.next() else { break }
                try await bob.send(.puback(PubAck(packetIdentifier: delivery.packetIdentifier)))
                sent.add(1, ordering: .relaxed)
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        let rated = await eventually(within: .seconds(30)) {
            (await prometheus.value(of: "rate(imserver_messages_delivered_total[5s])").flatMap(Double.init) ?? 0) > 0
        }
        load.cancel()
        _ = try? await load.value
        #expect(rated, "Prometheus saw no rate of delivered messages (\(sent.load(ordering: .relaxed)) sent)")

        // Every family has samples by now; promtool finds nothing to say about them.
        let body = try await HTTPClient.get(
            HTTPURL(parsing: "http://\(metrics)/metrics"), on: StockPrometheus.loop, timeout: .seconds(5), bodyLimit: 1 << 20)
        #expect(String(decoding: body, as: UTF8.self).contains(#"imserver_logins_total{result="accepted",code="0x00"} 2"#))
        let check = try await offPool { try ChildProcess.run("/usr/bin/promtool", ["check", "metrics"], input: body, timeout: .seconds(30)) }
        #expect(check.termination == .exited(0))
        #expect(String(decoding: check.stdout + check.stderr, as: UTF8.self) == "")
        alice.close()
        bob.close()
        #expect(try await server.stop(SIGTERM) == .exited(0))
    }

    @Test func aMetricsPortInUseFailsAtStartNamingTheAddress() async throws {
        let directory = TemporaryDirectory()
        let first = try await ImserverProcess.start(dataDirectory: directory.path + "/one", extra: ["--metrics-listen", "127.0.0.1:0"])
        let taken = try #require(first.listening["metrics"])
        let second = try await offPool {
            try ChildProcess.run(ImserverProcess.binary, [
                "--listen", "127.0.0.1:0", "--api", "127.0.0.1:0", "--metrics-listen", taken, "--data", directory.path + "/two",
            ], timeout: .seconds(30))
        }
        #expect(second.termination == .exited(1))
        #expect(String(decoding: second.stderr, as: UTF8.self).contains("cannot listen on \(taken): the address is already in use"))
        #expect(try await first.stop(SIGTERM) == .exited(0))
    }

    private func login(_ user: String, port: UInt16) async throws -> MQTTTestClient {
        let client = try await MQTTTestClient.open(port: port)
        let connack = try await client.login(appKey: ImserverProcess.appKey, token: try ImserverProcess.token(user), device: "\(user)-phone")
        guard connack?.reasonCode == .success else { throw TestFailure("login of \(user) failed: \(String(describing: connack))") }
        _ = try await client.subscribeInbox()
        return client
    }
}
