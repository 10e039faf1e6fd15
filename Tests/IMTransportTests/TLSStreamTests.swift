import Foundation
import IMTransport
import Testing
import TestSupport

/// TLS between our own ends: MQTT frames both ways, large writes that need many records and
/// readiness events, and TLS inside a SOCKS5 tunnel (the proxy relays ciphertext).
@Suite(.serialized, .timeLimit(.minutes(1)))
struct TLSStreamTests {
    struct Fixture {
        let directory = NSTemporaryDirectory() + "imsh-tls-" + UUID().uuidString
        let certificates: TestCertificates
        let server: EchoServerOverTLS

        init() throws {
            certificates = try TestCertificates.make(in: directory)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: certificates.serverKey)
            server = try EchoServerOverTLS(identity: TLSServerIdentity(
                certificate: certificates.serverCertificate, key: certificates.serverKey))
        }

        func settings(serverName: String = "localhost") throws -> TLSConnectSettings {
            TLSConnectSettings(
                context: try TLSContext.client(TLSClientConfiguration(caPath: certificates.caFile)), serverName: serverName)
        }

        func stop() {
            server.group.shutdown()
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    @Test func echoesSmallAndLargeFramesOverTLS13() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let loop = try EventLoop(name: "tls-client")
        defer { loop.shutdown() }
        let connection = try await Connection.connect(
            to: "127.0.0.1", port: fixture.server.port, options: ConnectOptions(timeout: .seconds(5), tls: try fixture.settings()),
            on: loop)
        defer { connection.close() }
        #expect(connection.tlsSession?.version == "TLSv1.3")
        // 1 MB crosses many TLS records and fills the socket buffers both ways.
        try await expectEcho(of: [TestFrames.pingRequest, TestFrames.publish(payloadSize: 1_000_000), TestFrames.pingRequest],
                             over: connection)
    }

    @Test func runsInsideASOCKS5Tunnel() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let proxy = try TestSOCKS5Proxy(targetPort: fixture.server.port)
        defer { proxy.stop() }
        let loop = try EventLoop(name: "tls-client")
        defer { loop.shutdown() }
        let options = ConnectOptions(
            timeout: .seconds(5), proxy: SOCKS5Proxy(host: "127.0.0.1", port: proxy.port), tls: try fixture.settings())
        let connection = try await Connection.connect(to: "localhost", port: fixture.server.port, options: options, on: loop)
        defer { connection.close() }
        #expect(connection.tlsSession != nil)
        try await expectEcho(of: [TestFrames.publish(payloadSize: 300)], over: connection)
        #expect(proxy.requests == [.init(addressType: 3, host: "localhost", port: fixture.server.port)])
    }

    @Test func aWrongServerNameIsRefusedWithTheNamesTheCertificateCarries() async throws {
        let fixture = try Fixture()
        defer { fixture.stop() }
        let loop = try EventLoop(name: "tls-client")
        defer { loop.shutdown() }
        let options = ConnectOptions(timeout: .seconds(5), tls: try fixture.settings(serverName: "other.example"))
        let error = await failure { () async throws(TransportError) in
            try await Connection.connect(to: "127.0.0.1", port: fixture.server.port, options: options, on: loop)
        }
        guard case .tls(let tls)? = error else {
            Issue.record("expected a TLS failure, got \(String(describing: error))")
            return
        }
        #expect(tls.kind == .verification && tls.isPermanent)
        #expect(tls.description == "the server certificate 'CN=localhost' is for DNS:localhost, IP Address:127.0.0.1, "
            + "not for 'other.example' (connect by one of those names, or set tls.serverName)")
    }
}
