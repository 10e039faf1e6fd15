import Foundation
import IMServer
import IMTransport
import TestSupport

/// Test certificates, a server identity made from them, and client settings that trust them.
struct TLSFixture {
    let directory = TemporaryDirectory()
    let certificates: TestCertificates
    let identity: TLSServerIdentity

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
