import Foundation
import IMProcess
import IMServer
import Testing
import TestSupport

/// Fault 7: MQTT 3.1.1 clients (the default of mosquitto_pub/sub and paho-mqtt) log in with
/// the same app key and token, send and receive, and get 3.1.1 return codes for refusals.
@Suite(.timeLimit(.minutes(1)))
struct StockPeer311Tests {
    func paho(_ server: TestServer, _ action: String, user: String, device: String, _ options: [String]) async throws -> [String] {
        try await PahoPeer.run(action, port: server.port, appKey: TestServer.appKey, token: try await server.token(user),
                               device: device, protocolVersion: "3.1.1", options)
    }

    @Test func paho311SendsAndReceivesAtQoS1AndAWrongTokenGetsReturnCode4() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        #expect(try await paho(server, "receive", user: "alice", device: "alice-311", ["--wait", "0.3"]) == ["connack 00", "suback 01"])
        #expect(try await paho(server, "send", user: "bob", device: "bob-311", ["--to", "alice", "--count", "2"]) == ["connack 00", "sent"])
        let received = try await paho(server, "receive", user: "alice", device: "alice-311", ["--count", "2"])
        #expect(received == ["connack 00", "suback 01", "message 1 0 im/inbox/bob paho 0", "message 1 0 im/inbox/bob paho 1"])
        let refused = try await PahoPeer.run("receive", port: server.port, appKey: TestServer.appKey, token: "not-a-token",
                                             protocolVersion: "3.1.1", ["--wait", "0.3"])
        // paho reports the 3.1.1 return code 4 as its MQTT 5 equivalent, 0x86.
        #expect(refused.first == "connack 86", "\(refused)")
        await server.stop()
    }

    @Test func mosquittoPubAndSubIn311() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let port = String(server.port)
        let (alice, bob) = (try await server.token("alice"), try await server.token("bob"))
        func run(_ tool: String, _ arguments: [String]) async throws -> ChildProcess.Output {
            try await offPool {
                try ChildProcess.run(tool, ["-h", "127.0.0.1", "-p", port, "-u", TestServer.appKey] + arguments, timeout: .seconds(10))
            }
        }
        // A first login makes alice's device known, so messages queue for it. (mosquitto_sub's
        // -W did not end mosquitto_sub when run from the test runner.)
        _ = try await paho(server, "receive", user: "alice", device: "alice-sub", ["--wait", "0.3"])
        let published = try await run("/usr/bin/mosquitto_pub", [
            "-P", bob, "-i", "bob-pub", "-q", "1", "-t", "im/send/alice", "-m", #"{"type":"text","text":"hi 311","cid":"c-311"}"#])
        #expect(published.termination.status == 0, "\(String(decoding: published.stderr, as: UTF8.self))")
        let received = try await run("/usr/bin/mosquitto_sub", [
            "-P", alice, "-i", "alice-sub", "-t", "im/inbox/#", "-q", "1", "-C", "1", "-F", "%q %t %p"])
        #expect(String(decoding: received.stdout, as: UTF8.self).hasPrefix(#"1 im/inbox/bob {"type":"text","text":"hi 311""#),
                "\(String(decoding: received.stdout + received.stderr, as: UTF8.self))")
        let refused = try await run("/usr/bin/mosquitto_sub", ["-P", "not-a-token", "-i", "x-sub", "-t", "im/inbox/#"])
        #expect(String(decoding: refused.stderr, as: UTF8.self).contains("not authorised")
                || String(decoding: refused.stderr, as: UTF8.self).contains("bad user name or password"),
                "\(String(decoding: refused.stderr, as: UTF8.self))")
        await server.stop()
    }

    /// A 3.1.1 device taken over by another login of its device id is closed (3.1.1 has no
    /// server DISCONNECT), and the new one is served.
    @Test func a311DeviceIsClosedWhenTakenOver() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        async let first = paho(server, "receive", user: "alice", device: "alice-311", ["--wait", "8"])
        // The second login must come after the first one's (a fixed second was not always enough
        // on a loaded machine, and then the first took the second over).
        #expect(await eventually(within: .seconds(6)) { await server.backend.isOnline(appKey: TestServer.appKey, userID: "alice") })
        let second = try await paho(server, "receive", user: "alice", device: "alice-311", ["--wait", "0.3"])
        #expect(second == ["connack 00", "suback 01"])
        let taken = try await first
        // Logged in, then closed by the takeover (on a loaded machine it may come before the SUBACK).
        #expect(taken.first == "connack 00" && taken.count <= 3 && taken.last?.hasPrefix("disconnect") == true, "\(taken)")
        await server.stop()
    }
}
