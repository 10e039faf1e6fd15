import Foundation
import IMProcess
import Testing
import TestSupport

/// Every refusal of the contract after login (DISCONNECT, PUBACK and SUBACK codes of
/// imsh-protocol(7)), met by a stock MQTT 5 client (paho-mqtt) of the `imserver` executable.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ImserverStockSessionRefusalTests {
    /// A condition the server ends a session for, or refuses a packet for.
    enum SessionRefusal: String, Sendable, CaseIterable {
        case kicked, blockedOnline, deactivatedOnline, otherDeviceLogin, shutdown, keepAliveTimeout
        case retain, qos2, topicAlias, packetTooLarge
        case topicNotAuthorized, senderNotAuthorized, payloadInvalid, filterNotAuthorized, filterInvalid

        /// The line paho prints for it.
        var expected: String {
            switch self {
            case .kicked: "disconnect 98 kicked"
            case .blockedOnline: "disconnect 98 user-blocked"
            case .deactivatedOnline: "disconnect 98 user-abandoned"
            case .otherDeviceLogin: "disconnect 8e other-device-login"
            case .shutdown: "disconnect 8b"
            case .keepAliveTimeout: "disconnect 8d"
            case .retain: "disconnect 9a"
            case .qos2: "disconnect 9b"
            case .topicAlias: "disconnect 94"
            case .packetTooLarge: "disconnect 95"
            case .topicNotAuthorized, .senderNotAuthorized: "puback 87"
            case .payloadInvalid: "puback 99"
            case .filterNotAuthorized: "suback 87"
            case .filterInvalid: "suback 8f"
            }
        }
    }

    @Test(arguments: SessionRefusal.allCases)
    func aStockClientGetsTheContractsCode(_ refusal: SessionRefusal) async throws {
        let server = try await StockImserver.start()
        let lines = try await withTimeout(.seconds(60)) { try await Self.run(refusal, server) }
        #expect(lines.first == "connack 00", "\(refusal): \(lines)")
        #expect(lines.contains(refusal.expected), "\(refusal): \(lines)")
        if refusal != .shutdown { try await server.stop() }
    }

    /// Brings about `refusal` with alice's paho client and returns what that client printed.
    static func run(_ refusal: SessionRefusal, _ server: StockImserver) async throws -> [String] {
        func send(_ options: [String]) async throws -> [String] {
            try await server.paho("send", "alice", device: "alice-1", ["--wait", "3"] + options)
        }
        func whileOnline(_ action: @escaping @Sendable () async throws -> Void) async throws -> [String] {
            let token = try await server.token("alice")
            async let online = server.paho("receive", "alice", device: "alice-1", token: token, ["--wait", "25"])
            try await ImserverStockRefusalTests.waitUntilOnline("alice", server)
            try await action()
            return try await online
        }
        switch refusal {
        case .kicked:
            return try await whileOnline { try await server.administer("/user/kick.json", "alice") }
        case .blockedOnline:
            return try await whileOnline { try await server.administer("/user/block.json", "alice", [("minute", "10")]) }
        case .deactivatedOnline:
            return try await whileOnline { try await server.administer("/user/deactivate.json", "alice") }
        case .otherDeviceLogin:
            return try await whileOnline {
                _ = try await server.paho("receive", "alice", device: "alice-2", ["--wait", "0.3"])
            }
        case .shutdown:
            return try await whileOnline { try await server.stop() }
        case .keepAliveTimeout:
            // Keep Alive 1 s: the server gives up after 1.5 s of silence.
            return try await server.paho("silent", "alice", device: "alice-1", ["--keepalive", "1", "--wait", "2.5"])
        case .retain:
            return try await send(["--retain"])
        case .qos2:
            return try await send(["--qos", "2"])
        case .topicAlias:
            return try await send(["--alias", "1"])
        case .packetTooLarge:
            return try await server.paho("oversize", "alice", device: "alice-1", ["--bytes", "8000"])
        case .topicNotAuthorized:
            return try await send(["--topic", "im/other/bob"])
        case .senderNotAuthorized:
            return try await send(["--payload", #"{"type":"text","text":"hi","cid":"c1","from":"mallory"}"#])
        case .payloadInvalid:
            return try await send(["--payload", "not json"])
        case .filterNotAuthorized:
            return try await server.paho("receive", "alice", device: "alice-1", ["--filter", "im/send/#", "--wait", "0.5"])
        case .filterInvalid:
            // paho checks wildcards itself; an empty shared-subscription filter passes it and is invalid.
            return try await server.paho("receive", "alice", device: "alice-1", ["--filter", "$share/group/", "--wait", "0.5"])
        }
    }
}
