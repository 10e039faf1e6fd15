import Foundation
import IMProcess
import Testing
import TestSupport

/// The `imserver` executable with stock clients (paho-mqtt; mosquitto_pub and mosquitto_sub),
/// in MQTT 5 and 3.1.1, logging in with tokens from the server API: QoS 1 both ways, offline
/// delivery to a persistent session (clean start 0 / clean session false), redelivery with DUP,
/// a QoS 0 subscription.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ImserverStockPeerTests {
    static let versions = ["5", "3.1.1"]

    /// Alice's device logs in once (so messages queue for it; subscribed at `qos`), bob sends
    /// with `send` (more `paho_peer.py send` runs for `more`), and alice's next login receives
    /// with `receive`; then a last login of hers that must get nothing more. Returns what bob's
    /// first run, alice's receiving run and her last run printed.
    func offlineDelivery(
        _ server: StockImserver, _ version: String = "5", qos: String = "1", send: [String] = [], more: [[String]] = [],
        receive: [String] = []
    ) async throws -> (sent: [String], received: [String], after: [String]) {
        func paho(_ action: String, _ user: String, _ options: [String]) async throws -> [String] {
            try await server.paho(action, user, device: "\(user)-1", protocolVersion: version, options)
        }
        let first = try await paho("receive", "alice", ["--qos", qos, "--wait", "0.3"])
        #expect(first == ["connack 00", "suback 0\(qos)"])
        let sent = try await paho("send", "bob", ["--to", "alice"] + send)
        for options in more { _ = try await paho("send", "bob", ["--to", "alice"] + options) }
        let received = try await paho("receive", "alice", receive)
        return (sent, received, try await paho("receive", "alice", ["--wait", "0.5"]))
    }

    /// Bob sends two messages at QoS 1 while alice is offline; her next login (same device,
    /// persistent session) gets both at QoS 1 once, in order.
    @Test(arguments: versions)
    func pahoSendsAndReceivesOfflineMessagesAtQoS1(_ version: String) async throws {
        let server = try await StockImserver.start()
        let run = try await offlineDelivery(server, version, send: ["--count", "2"], receive: ["--count", "2"])
        #expect(run.sent == ["connack 00", "sent"])
        #expect(run.received == ["connack 00", "suback 01", "message 1 0 im/inbox/bob paho 0", "message 1 0 im/inbox/bob paho 1"])
        #expect(run.after == ["connack 00", "suback 01"], "an acknowledged message came again")
        try await server.stop()
    }

    /// A delivery not acknowledged comes again on the next connection with DUP set; once
    /// acknowledged it does not come a third time.
    @Test(arguments: versions)
    func anUnacknowledgedDeliveryComesAgainWithDUP(_ version: String) async throws {
        let server = try await StockImserver.start()
        let run = try await offlineDelivery(server, version, receive: ["--no-ack"])
        #expect(run.received == ["connack 00", "suback 01", "message 1 0 im/inbox/bob paho 0"])
        // The last login of offlineDelivery is the redelivery: DUP, and acknowledged this time.
        #expect(run.after == ["connack 00", "suback 01", "message 1 1 im/inbox/bob paho 0"])
        let after = try await server.paho("receive", "alice", device: "alice-1", protocolVersion: version, ["--wait", "0.5"])
        #expect(after == ["connack 00", "suback 01"])
        try await server.stop()
    }

    /// A QoS 0 subscription gets its delivery at QoS 0, once.
    @Test(arguments: versions)
    func aQoS0SubscriptionGetsQoS0DeliveriesOnce(_ version: String) async throws {
        let server = try await StockImserver.start()
        let run = try await offlineDelivery(server, version, qos: "0", receive: ["--qos", "0"])
        #expect(run.received == ["connack 00", "suback 00", "message 0 0 im/inbox/bob paho 0"])
        #expect(run.after == ["connack 00", "suback 01"], "a QoS 0 delivery stayed queued")
        try await server.stop()
    }

    /// A message a stock client publishes at QoS 0 is stored and delivered as one at QoS 1 is.
    @Test(arguments: versions)
    func aQoS0PublishIsStoredAndDelivered(_ version: String) async throws {
        let server = try await StockImserver.start()
        let run = try await offlineDelivery(server, version, send: ["--qos", "0"])
        #expect(run.sent == ["connack 00", "sent"])
        #expect(run.received == ["connack 00", "suback 01", "message 1 0 im/inbox/bob paho 0"])
        try await server.stop()
    }

    /// 3.1.1 has no failure PUBACK: a message the server refuses (a payload that is not a
    /// message, 0x99 in MQTT 5) is acknowledged all the same and dropped, as MQTT-3.3.5-2 allows.
    @Test func a311PublishTheServerRefusesIsAcknowledgedAndNotDelivered() async throws {
        let server = try await StockImserver.start()
        let run = try await offlineDelivery(server, "3.1.1", send: ["--payload", "not a message"], receive: ["--wait", "0.5"])
        #expect(run.sent == ["connack 00", "sent"])
        #expect(run.received == ["connack 00", "suback 01"])
        try await server.stop()
    }

    /// A delivery larger than the Maximum Packet Size the client announced is not sent
    /// (MQTT-3.1.2-24): it is dropped as if delivered (MQTT-3.1.2-25), and the next one comes.
    @Test func aDeliveryOverTheClientsMaximumPacketSizeIsNotSent() async throws {
        let server = try await StockImserver.start()
        let big = #"{"type":"text","text":"\#(String(repeating: "x", count: 500))","cid":"big"}"#
        let run = try await offlineDelivery(server, send: ["--payload", big], more: [[]], receive: ["--max-packet", "300", "--wait", "1"])
        #expect(run.received == ["connack 00", "suback 01", "message 1 0 im/inbox/bob paho 0"])
        #expect(run.after == ["connack 00", "suback 01"], "the dropped delivery is still queued")
        try await server.stop()
    }

    /// mosquitto_pub sends at QoS 1, mosquitto_sub (persistent session: -c) receives it after
    /// being offline; both in MQTT 5 and 3.1.1; a wrong token is refused in words.
    @Test(arguments: [["-V", "mqttv5"], ["-V", "mqttv311"]])
    func mosquittoPubAndSubWithTokensFromTheAPI(_ version: [String]) async throws {
        let server = try await StockImserver.start()
        let (alice, bob) = (try await server.token("alice"), try await server.token("bob"))
        func run(_ tool: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
            let result = try await offPool {
                try ChildProcess.run(tool, version + ["-h", "127.0.0.1", "-p", String(server.port), "-u", StockImserver.appKey]
                                     + arguments, timeout: .seconds(10))
            }
            return (result.termination.status, String(decoding: result.stdout + result.stderr, as: UTF8.self))
        }
        // -W ends mosquitto_sub after a second with nothing: the device is known and offline.
        let subscribe = ["-P", alice, "-i", "alice-sub", "-c", "-t", "im/inbox/#", "-q", "1", "-F", "%q %t %p"]
            + (version.last == "mqttv5" ? ["-x", "604800"] : [])
        _ = try await run("/usr/bin/mosquitto_sub", subscribe + ["-W", "1"])
        let published = try await run("/usr/bin/mosquitto_pub", [
            "-P", bob, "-i", "bob-pub", "-q", "1", "-t", "im/send/alice", "-m", #"{"type":"text","text":"hi","cid":"c-1"}"#])
        #expect(published.status == 0, "\(published.output)")
        let received = try await run("/usr/bin/mosquitto_sub", subscribe + ["-C", "1"])
        #expect(received.output.hasPrefix(#"1 im/inbox/bob {"type":"text","text":"hi","cid":"c-1","from":"bob"}"#),
                "\(received.output)")
        let refused = try await run("/usr/bin/mosquitto_sub", ["-P", "not-a-token", "-i", "x-sub", "-t", "im/inbox/#"])
        #expect(refused.status != 0)
        #expect(refused.output.lowercased().contains("not authori") || refused.output.lowercased().contains("bad user name or password"),
                "\(refused.output)")
        try await server.stop()
    }
}
