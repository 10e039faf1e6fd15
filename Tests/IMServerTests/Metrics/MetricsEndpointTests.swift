import IMHTTP
import IMProtocol
import IMServer
import IMTransport
import MQTT
import Testing
import TestSupport

/// `/metrics`, `/healthz` and `/readyz` of an embedded server: what the broker counted, read
/// back over HTTP; the endpoints' refusals of what they do not serve.
@Suite(.timeLimit(.minutes(1)))
struct MetricsEndpointTests {
    @Test func aScrapeCountsLoginsMessagesAndDisconnectsAsTheyHappened() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let alice = try await server.loggedIn("alice", device: "phone-a")
        let bob = try await server.loggedIn("bob", device: "phone-b", webSocket: true)
        #expect(try await alice.sendText("hello", to: "bob", cid: "c1", packetID: 1) == .success)
        guard case .publish(let delivery)? = await bob.next() else { throw TestFailure("bob got no delivery") }
        try await bob.send(.puback(PubAck(packetIdentifier: delivery.packetIdentifier)))
        #expect(try await alice.sendText("x", to: "bob", cid: "c2", packetID: 2, topic: "im/inbox/bob") == .notAuthorized)
        let stranger = try await MQTTTestClient.open(port: server.port)
        #expect(try await stranger.login(appKey: TestServer.appKey, token: "not-a-token", device: "d")?.reasonCode == .badUserNameOrPassword)
        // A second login of bob's phone takes the first one over.
        _ = try await server.loggedIn("bob", device: "phone-b")
        #expect(await bob.closed())

        // The PUBACK is read on the server's loop after the test sent it.
        #expect(await eventually { (try? await server.scrape()["imserver_messages_acknowledged_total"]) == 1 })
        let samples = try await server.scrape()
        #expect(samples[#"imserver_logins_total{result="accepted",code="0x00"}"#] == 3)
        #expect(samples[#"imserver_logins_total{result="token-incorrect",code="0x86"}"#] == 1)
        #expect(samples[#"imserver_disconnects_total{code="0x8E",reason="session_taken_over"}"#] == 1)
        #expect(samples["imserver_messages_received_total"] == 2)
        #expect(samples["imserver_messages_stored_total"] == 1)
        #expect(samples["imserver_messages_delivered_total"] == 1)
        #expect(samples[#"imserver_messages_refused_total{code="0x87",reason="not_authorized"}"#] == 1)
        #expect(samples[#"imserver_connections{transport="tcp",protocol="5"}"#] == 2)
        #expect(samples[#"imserver_connections{transport="ws",protocol="5"}"#] == 0)
        #expect(samples["imserver_queued_deliveries"] == 0)
        #expect((samples["imserver_store_commit_duration_seconds_count"] ?? 0) >= 1)
        #expect(samples[#"imserver_store_commit_calls_bucket{le="+Inf"}"#] == samples["imserver_store_commit_calls_count"])
        #expect((samples["process_resident_memory_bytes"] ?? 0) > 1_000_000)
        #expect((samples["process_open_fds"] ?? 0) > 3)
        await server.stop()
    }

    @Test func apiRequestsAreCountedByEndpointAndStatus() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let api = try await APITestClient.connect(port: server.apiPort, on: TestServer.scrapeLoop)
        var reader = api.reader()
        try await api.send(HTTPRequest(method: "GET", target: "/user/getToken.json", headers: ["Host": "127.0.0.1"]))
        #expect(try await reader.next().status == .methodNotAllowed)
        try await api.send(HTTPRequest(method: "POST", target: "/nowhere", headers: ["Host": "127.0.0.1"]))
        #expect(try await reader.next().status == .notFound)
        api.close()
        let samples = try await server.scrape()
        #expect(samples[#"imserver_api_requests_total{path="/user/getToken.json",status="405"}"#] == 1)
        #expect(samples[#"imserver_api_requests_total{path="other",status="404"}"#] == 1)
        await server.stop()
    }

    @Test func healthAndReadinessFollowTheServersState() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        #expect(try await server.metricsExchange(HTTPRequest(method: "GET", target: "/healthz", headers: ["Host": "127.0.0.1"])).status == .ok)
        #expect(try await server.metricsExchange(HTTPRequest(method: "GET", target: "/readyz", headers: ["Host": "127.0.0.1"])).status == .ok)
        server.server.beginDraining("SIGTERM")
        let draining = try await server.metricsExchange(HTTPRequest(method: "GET", target: "/readyz", headers: ["Host": "127.0.0.1"]))
        #expect(draining.status == .serviceUnavailable)
        #expect(String(decoding: draining.body, as: UTF8.self).contains("draining (SIGTERM)"))
        #expect(try await server.metricsExchange(HTTPRequest(method: "GET", target: "/healthz", headers: ["Host": "127.0.0.1"])).status == .ok)
        await server.stop()
    }

    @Test func onlyGetAndHeadOfTheThreePathsAreServed() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        for method in ["POST", "PUT", "DELETE"] {
            let response = try await server.metricsExchange(HTTPRequest(method: method, target: "/metrics", headers: ["Host": "127.0.0.1"]))
            #expect(response.status == .methodNotAllowed && response.headers["Allow"] == "GET, HEAD")
        }
        #expect(try await server.metricsExchange(HTTPRequest(method: "GET", target: "/user/kick.json", headers: ["Host": "127.0.0.1"])).status == .notFound)
        let body = HTTPRequest(method: "GET", target: "/metrics", headers: ["Host": "127.0.0.1", "Content-Length": "5"], body: Array("hello".utf8))
        #expect(try await server.metricsExchange(body).status == .payloadTooLarge)
        // A head that never ends is cut like the API's (its head timeout, 3 s).
        let slow = try await APITestClient.connect(port: server.metricsPort, on: TestServer.scrapeLoop)
        var reader = slow.reader()
        try await slow.send(Array("GET /metrics HTTP/1.1\r\nHost: x\r\n".utf8))
        let cut = try await reader.untilClosed()
        #expect(cut.map(\.status) == [.requestTimeout])
        slow.close()
        await server.stop()
    }
}
