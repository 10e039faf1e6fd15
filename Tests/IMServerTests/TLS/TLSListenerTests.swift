import Foundation
import IMProcess
import IMProtocol
import IMServer
import IMTransport
import MQTT
import Testing
import TestSupport

/// imserver's TLS listeners against stock TLS clients (paho-mqtt, openssl s_client) and our own.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct TLSListenerTests {
    static let pahoScript = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("StockClient/paho_tls_exchange.py").path

    @Test func pahoLogsInWithATokenAndExchangesQoS1OverTLS() async throws {
        let fixture = try TLSFixture()
        let server = try await fixture.server()
        let arguments = [
            "python3", Self.pahoScript, "--port", String(try #require(server.tlsPort)), "--ca", fixture.certificates.caFile,
            "--app-key", TestServer.appKey, "--alice-token", try await server.token("alice"),
            "--bob-token", try await server.token("bob"),
        ]
        let output = try await offPool { try ChildProcess.run("/usr/bin/env", arguments, timeout: .seconds(30)) }
        #expect(output.termination.status == 0, "\(String(decoding: output.stderr, as: UTF8.self))")
        #expect(String(decoding: output.stdout, as: UTF8.self) == "TLSv1.3 puback 00 im/inbox/alice qos1 over TLS\n")
        await server.stop()
    }

    @Test(arguments: [("-tls1", false), ("-tls1_1", false), ("-tls1_2", true), ("-tls1_3", true)])
    func opensslClientGetsTLS12And13Only(version: String, accepted: Bool) async throws {
        let fixture = try TLSFixture()
        let server = try await fixture.server()
        let arguments = [
            "s_client", "-connect", "127.0.0.1:\(try #require(server.tlsPort))", version, "-CAfile", fixture.certificates.caFile,
            "-servername", "localhost", "-verify_return_error",
        ]
        // TLS 1.0 and 1.1 need security level 0 on the client side even to be offered.
        let output = try await offPool {
            try ChildProcess.run("/usr/bin/openssl", accepted ? arguments : arguments + ["-cipher", "DEFAULT@SECLEVEL=0"],
                                 input: [], timeout: .seconds(10))
        }
        let text = String(decoding: output.stdout + output.stderr, as: UTF8.self)
        let expected = ["-tls1": "TLSv1", "-tls1_1": "TLSv1.1", "-tls1_2": "TLSv1.2", "-tls1_3": "TLSv1.3"][version]!
        if accepted {
            #expect(text.contains("New, \(expected), Cipher is"), "\(text)")
            #expect(text.contains("Verify return code: 0 (ok)"))
        } else {
            #expect(text.contains("alert protocol version"), "\(text)")
            #expect(text.contains("Cipher is (NONE)"))
        }
        await server.stop()
    }

    @Test func aKeyReadableByOthersIsRefusedWithHowToFixIt() throws {
        let fixture = try TLSFixture()
        let key = fixture.certificates.serverKey
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: key)
        #expect(throws: TLSFailure(.configuration,
            "the private key \(key) is readable by group or others (mode 640); it must be private to its owner: run chmod 600 \(key)")) {
            try TLSServerIdentity(certificate: fixture.certificates.serverCertificate, key: key)
        }
    }

    @Test func aKeyThatDoesNotMatchTheCertificateIsRefused() throws {
        let fixture = try TLSFixture()
        let certificates = fixture.certificates
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: certificates.clientKey)
        #expect(throws: TLSFailure(.configuration,
            "the key \(certificates.clientKey) does not match the certificate \(certificates.serverCertificate)")) {
            try TLSServerIdentity(certificate: certificates.serverCertificate, key: certificates.clientKey)
        }
    }

    @Test func aReloadServesNewClientsTheNewCertificateWithoutDroppingLiveOnes() async throws {
        let fixture = try TLSFixture()
        let server = try await fixture.server()
        let alice = try await server.loggedIn("alice", device: "phone-a", tls: try fixture.client())
        // The expired certificate carries the same key: swap the files and reload.
        let certificate = fixture.certificates.serverCertificate
        try FileManager.default.removeItem(atPath: certificate)
        try FileManager.default.copyItem(atPath: fixture.certificates.expiredCertificate, toPath: certificate)
        try fixture.identity.reload()

        do {
            _ = try await MQTTTestClient.open(port: try #require(server.tlsPort), tls: try fixture.client())
            Issue.record("a new client accepted the expired certificate")
        } catch let error as TransportError {
            #expect("\(error)".contains("expired on"), "\(error)")
        }
        try await alice.send(.pingreq)
        #expect(await alice.next() == .pingresp)
        await server.stop()
    }
}
