import Foundation
import IMProtocol
import Testing
import TestSupport

/// Every login refusal of the contract (imsh-protocol(7), REFUSALS AND CODES), met by a stock
/// client (paho-mqtt, MQTT 5 and 3.1.1) logging in to the `imserver` executable with a token
/// from its server API: the CONNACK code, and in MQTT 5 the `im-error` beside it.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ImserverStockRefusalTests {
    /// A condition the server refuses a login for.
    enum LoginRefusal: String, Sendable, CaseIterable {
        case tokenIncorrect, tokenExpired, userBlocked, userAbandoned, appBlocked, appUnknown
        case otherDeviceOnline, clientIdentifierInvalid, platformInvalid, protocolVersion, serverBusy, connectRate

        /// The first line paho prints for this refusal in `protocolVersion` (paho shows a 3.1.1
        /// return code as its MQTT 5 reason code: 2 as 0x85, 3 as 0x88, 4 as 0x86, 5 as 0x87).
        func expected(_ protocolVersion: String) -> String {
            let v5 = protocolVersion == "5"
            switch self {
            case .tokenIncorrect: return v5 ? "connack 86 token-incorrect" : "connack 86"
            case .tokenExpired: return v5 ? "connack 86 token-expired" : "connack 86"
            case .userBlocked: return v5 ? "connack 8a user-blocked" : "connack 87"
            case .userAbandoned: return v5 ? "connack 87 user-abandoned" : "connack 87"
            case .appBlocked: return v5 ? "connack 87 app-blocked" : "connack 87"
            case .appUnknown: return v5 ? "connack 87 app-unknown" : "connack 87"
            case .otherDeviceOnline: return "connack 87 other-device-online"
            case .clientIdentifierInvalid: return "connack 85"
            case .platformInvalid: return "connack 82"
            case .protocolVersion: return "connack 84"
            case .serverBusy: return v5 ? "connack 89" : "connack 88"
            case .connectRate: return v5 ? "connack 9f" : "connack 88"
            }
        }

        /// The limits of the server this refusal needs.
        var limits: String {
            switch self {
            case .serverBusy: #""maxConnections": 1"#
            case .connectRate: #""connectRate": 1"#
            default: #""maxPacketSize": 4096"#
            }
        }

        /// The runs: each refusal in MQTT 5, and in 3.1.1 where 3.1.1 can carry its cause
        /// (a CONNECT user property cannot be sent in 3.1.1; the protocol case is 3.1 itself).
        static var runs: [(LoginRefusal, String)] {
            allCases.map { ($0, $0 == .protocolVersion ? "3.1" : "5") }
                + allCases.filter { ![.otherDeviceOnline, .platformInvalid, .protocolVersion].contains($0) }.map { ($0, "3.1.1") }
        }
    }

    @Test(arguments: LoginRefusal.runs)
    func aStockClientIsRefusedWithTheContractsCode(_ refusal: LoginRefusal, _ version: String) async throws {
        let server = try await StockImserver.start(limits: refusal.limits)
        let lines = try await withTimeout(.seconds(60)) { try await Self.login(refusal, version, server) }
        #expect(lines == [refusal.expected(version)], "\(refusal) in MQTT \(version)")
        try await server.stop()
    }

    /// Brings about `refusal` and returns the CONNACK lines of the refused client (the first line of each run).
    static func login(_ refusal: LoginRefusal, _ version: String, _ server: StockImserver) async throws -> [String] {
        let wait = ["--wait", "0.3"]
        func refused(user: String = "alice", device: String = "alice-1", appKey: String = StockImserver.appKey,
                     token: String? = nil, _ options: [String] = wait) async throws -> [String] {
            let lines = try await server.paho("receive", user, device: device, protocolVersion: version, appKey: appKey,
                                              token: token, options)
            return Array(lines.prefix(1))
        }
        switch refusal {
        case .tokenIncorrect:
            return try await refused(token: try await server.token("alice") + "x")
        case .tokenExpired:
            let token = try await server.token("alice")
            try await Task.sleep(for: .milliseconds(5))
            try await server.administer("/user/token/expire.json", "alice", [("time", String(StockImserver.now))])
            return try await refused(token: token)
        case .userBlocked:
            try await server.administer("/user/block.json", "alice", [("minute", "10")])
            return try await refused()
        case .userAbandoned:
            try await server.administer("/user/deactivate.json", "alice")
            return try await refused()
        case .appBlocked:
            let token = try Token.issue(appKey: StockImserver.blockedAppKey, secret: StockImserver.blockedSecret,
                                        userID: "alice", issuedAt: StockImserver.now)
            return try await refused(appKey: StockImserver.blockedAppKey, token: token)
        case .appUnknown:
            return try await refused(appKey: "no-such-app", token: try await server.token("alice"))
        case .otherDeviceOnline:
            let online = Task { try await server.paho("receive", "alice", device: "alice-1", ["--wait", "25"]) }
            defer { online.cancel() }
            try await waitUntilOnline("alice", server)
            return try await refused(device: "alice-2", wait + ["--property", "im-reconnect=1", "--property", "im-kick-enable=1"])
        case .serverBusy:
            // Every open connection counts, logged in or not: bob's is the one the server may have.
            let online = Task { try await server.paho("receive", "bob", device: "bob-1", ["--wait", "25"]) }
            defer { online.cancel() }
            try await waitUntilOnline("bob", server)
            return try await refused()
        case .clientIdentifierInvalid:
            return try await refused(device: "alice phone")
        case .platformInvalid:
            return try await refused(wait + ["--property", "im-platform=toaster"])
        case .protocolVersion:
            return try await refused()
        case .connectRate:
            // Two clients of one process, their CONNECTs back to back: the first is served, the second refused.
            let lines = try await server.paho("burst", "alice", device: "alice", protocolVersion: version, ["--count", "2"])
            guard lines.first == "connack 00" else { return lines }
            return Array(lines.dropFirst())
        }
    }

    /// Waits until the server API says `user` is online.
    static func waitUntilOnline(_ user: String, _ server: StockImserver) async throws {
        // Generous: a loaded machine may take seconds to start a Python client.
        let deadline = ContinuousClock.now + .seconds(25)
        while ContinuousClock.now < deadline {
            let (_, answer) = try await server.call("/user/checkOnline.json", [("userId", user)])
            if answer.objectValue?["status"]?.stringValue == "1" { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("\(user) did not come online within 25 s")
    }
}
