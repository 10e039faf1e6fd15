import Foundation
import IMJSON
import IMServer
import IMTransport
import Testing
import TestSupport

/// imsh over TLS end to end: a profile with an mqtts:// server, an https:// API and a `tls`
/// object; `status --json` tells the protocol and cipher of the link.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct TLSProfileTests {
    @Test func connectsOverTLSGetsTokensOverHTTPSAndShowsTheLinkInStatus() async throws {
        let sandbox = Sandbox(shipped: false)
        let certificates = try TestCertificates.make(in: sandbox.root + "/certs")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: certificates.serverKey)
        let server = try await TestServer.start(
            tls: try TLSServerIdentity(certificate: certificates.serverCertificate, key: certificates.serverKey))
        let mqtts = try #require(server.server.mqttTLSAddress?.port), https = try #require(server.server.apiTLSAddress?.port)
        sandbox.write("""
            {
              "appKey": "\(TestServer.appKey)", "appSecret": "\(TestServer.appSecret)",
              "server": "mqtts://localhost:\(mqtts)", "api": "https://localhost:\(https)",
              "tls": {"ca": "\(certificates.caFile)"},
              "accounts": {"erin": {"userId": "erin"}, "loose": {"userId": "lou", "tls": {"ca": "\(certificates.otherCAFile)", "insecure": true}}, "pinned": {"userId": "pat", "tls": {"pinSHA256": ["\(String(repeating: "A", count: 43))="]}}}
            }
            """, to: "profiles/secure.json")
        let run = try await sandbox.json("connect secure/erin; status secure/erin; connect secure/pinned; connect secure/loose")
        await server.stop()
        let connect = try #require(run.result("connect"))
        #expect(connect.accounts.first?["status"] == "connected", "\(run.stdout) \(run.stderr)")
        let status = try #require(run.result("status")?.accounts.first)
        #expect(status.string("server") == "mqtts://localhost:\(mqtts)")
        let tls = try #require(status["tls"]?.objectValue)
        #expect(tls.string("version") == "TLSv1.3")
        #expect(tls.string("alpn") == "mqtt")
        #expect(tls.string("cipher")?.hasPrefix("TLS_") == true)
        let pinned = try #require(run.result("connect", 1)?.accounts.first)
        #expect(pinned["status"] == "unconnected")
        #expect(pinned["errorCode"] == 34020)
        #expect(pinned.string("message")?.contains("pinSHA256") == true)
        let loose = try #require(run.result("connect", 2)?.accounts.first)
        #expect(loose["status"] == "connected")
        #expect(loose.string("message") == "warning: tls.insecure: the server's certificate was not verified")
    }

    /// The shipped prod profile reaches the embedded server over TLS, with a development CA
    /// made in the data directory on first start and kept for the next.
    @Test func theShippedProdProfileConnectsToTheEmbeddedServerOverTLS() async throws {
        let sandbox = Sandbox()
        for round in 0..<2 {
            let run = try await sandbox.json("use prod; connect carol-phone; status carol-phone")
            #expect(run.result("connect")?.accounts.first?["status"] == "connected", "\(run.stderr)")
            let status = try #require(run.result("status")?.accounts.first)
            #expect(status.string("server")?.hasPrefix("mqtts://127.0.0.1:") == true, "round \(round)")
            #expect(status["tls"]?.objectValue?.string("version") == "TLSv1.3")
        }
        let key = try FileManager.default.attributesOfItem(atPath: sandbox.data + "/server/tls/ca.key")
        #expect(key[.posixPermissions] as? Int == 0o600)
    }
}
