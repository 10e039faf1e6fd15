import Foundation
import IMServer
import IMTransport
import TestSupport

/// Test certificates, a server identity made from them, and client settings that trust them.
struct TLSFixture {
    let directory = TemporaryDirectory()
    let certificates: TestCertificates
    let identity: TLSServerIdentity

    /// A record header announcing a 512-byte ClientHello, and the first bytes of it only: a
    /// handshake that stalls half-way.
    static let halfClientHello: [UInt8] = [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03]

    init() throws {
        certificates = try TestCertificates.make(in: directory.path + "/certs")
        // The broker's rule: a key readable by others is refused.
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: certificates.serverKey)
        identity = try TLSServerIdentity(certificate: certificates.serverCertificate, key: certificates.serverKey)
    }

    /// Client settings that verify the server as `localhost` with the test CA.
    func client() throws -> TLSConnectSettings {
        TLSConnectSettings(context: try TLSContext.client(TLSClientConfiguration(caPath: certificates.caFile)), serverName: "localhost")
    }

    /// A server with TLS listeners beside the plaintext ones.
    func server(limits: ServerLimits = ServerLimits()) async throws -> TestServer {
        try await TestServer.start(directory: directory, limits: limits, tls: identity)
    }
}
