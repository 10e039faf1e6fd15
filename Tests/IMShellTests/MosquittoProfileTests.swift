import Foundation
import IMProtocol
import Testing
import TestSupport

/// The `imsh` executable against a stock mosquitto named in a profile (password file: user
/// name = app key, password = alice's token): the right token connects, a wrong one stops with
/// the contract's status and code for a refused token (tokenIncorrect 15, 31004) and no retry.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct MosquittoProfileTests {
    static let appKey = "stock-app"

    static func token(_ user: String, secret: String = "stock-secret") throws -> String {
        try Token.sign(TokenClaims(appKey: appKey, userID: user, issuedAt: 1, nonce: "00c0ffee"), secret: secret)
    }

    /// A broker for alice, in a directory the `mosquitto` user can read, with its certificates
    /// (made there) when over `tls`. The directory lives as long as the test holds it.
    static func broker(
        refuseSubscriptions: Bool = false, tls: Bool = false
    ) throws -> (StockMosquitto, TemporaryDirectory, TestCertificates?) {
        let directory = TemporaryDirectory()
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        let certificates = tls ? try TestCertificates.make(in: directory.path + "/certs") : nil
        let broker = try StockMosquitto(
            directory: directory.path, certificate: certificates?.serverCertificate, key: certificates?.serverKey,
            users: [appKey: try token("alice")], refuseSubscriptions: refuseSubscriptions)
        return (broker, directory, certificates)
    }

    @Test func theRightTokenConnectsAndAWrongOneIsRefusedWithTokenIncorrect() async throws {
        let (broker, directory, _) = try Self.broker()
        defer { withExtendedLifetime(directory) { broker.stop() } }
        let sandbox = Sandbox(shipped: false)
        sandbox.write("""
            {
              "appKey": "\(Self.appKey)", "server": "mqtt://127.0.0.1:\(broker.port)",
              "accounts": {"alice": {"token": "\(try Self.token("alice"))", "deviceId": "phone-alice"},
                           "forged": {"token": "\(try Self.token("alice", secret: "other"))", "deviceId": "phone-forged"}}
            }
            """, to: "profiles/stock.json")
        let run = try await sandbox.json("connect stock/alice; status stock/alice; connect stock/forged", timeout: .seconds(30))
        let connected = try #require(run.result("connect")?.accounts.first, "\(run.stdout) \(run.stderr)")
        #expect(connected["status"] == "connected", "\(run.stdout) \(run.stderr)")
        let status = try #require(run.result("status")?.accounts.first)
        #expect(status.string("server") == "127.0.0.1:\(broker.port)")
        let refused = try #require(run.result("connect", 1)?.accounts.first, "\(run.stdout)")
        #expect(refused["status"] == "tokenIncorrect", "\(refused)")
        #expect(refused["errorCode"] == 31004, "\(refused)")
        // One refused login (mosquitto answers CONNACK 0x87), not retried.
        #expect(broker.output.contains("Sending CONNACK to 127.0.0.1 (0, 135)"), "\(broker.output)")
        let refusals = broker.output.components(separatedBy: "disconnected, not authorised").count - 1
        #expect(refusals == 1, "\(broker.output)")
    }

    /// A broker whose ACL refuses the inbox subscription (SUBACK 0x87): `status` says so, with
    /// the code, while the account stays connected.
    @Test func statusShowsARefusedInboxSubscription() async throws {
        let (broker, directory, _) = try Self.broker(refuseSubscriptions: true)
        defer { withExtendedLifetime(directory) { broker.stop() } }
        let sandbox = Sandbox(shipped: false)
        sandbox.write("""
            {"appKey": "\(Self.appKey)", "server": "mqtt://127.0.0.1:\(broker.port)",
             "accounts": {"alice": {"token": "\(try Self.token("alice"))", "deviceId": "phone-alice"}}}
            """, to: "profiles/stock.json")
        let run = try await sandbox.json("connect stock/alice; sleep 1; status stock/alice", timeout: .seconds(30))
        let status = try #require(run.result("status")?.accounts.first, "\(run.stdout) \(run.stderr)")
        #expect(status["status"] == "connected", "\(status)")
        #expect(status.string("detail")?.contains("inbox subscription refused: 0x87 not authorized") == true, "\(status)")
    }

    /// Over TLS: an mqtts:// profile with the broker's CA connects, and `status` names the link.
    @Test func connectsOverTLSWithTheProfilesCA() async throws {
        let (broker, directory, certificates) = try Self.broker(tls: true)
        defer { withExtendedLifetime(directory) { broker.stop() } }
        let ca = try #require(certificates).caFile
        let sandbox = Sandbox(shipped: false)
        sandbox.write("""
            {"appKey": "\(Self.appKey)", "server": "mqtts://localhost:\(broker.port)", "tls": {"ca": "\(ca)"},
             "accounts": {"alice": {"token": "\(try Self.token("alice"))", "deviceId": "phone-alice"}}}
            """, to: "profiles/stock.json")
        let run = try await sandbox.json("connect stock/alice; status stock/alice", timeout: .seconds(30))
        #expect(run.result("connect")?.accounts.first?["status"] == "connected", "\(run.stdout) \(run.stderr)")
        let status = try #require(run.result("status")?.accounts.first)
        #expect(status.string("server") == "mqtts://localhost:\(broker.port)")
        #expect(status["tls"]?.objectValue?.string("version") == "TLSv1.3", "\(status)")
    }
}
