import Foundation
import IMEngine
import IMHTTP
import IMProcess
import IMTransport
import Testing
import TestSupport

/// An https token URL served by a stock TLS server (`openssl s_server -WWW`, which serves the
/// files of its directory): the token arrives over a verified link, a wrong CA is refused.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct TokenURLTLSTests {
    let loops: EventLoopGroup

    init() throws {
        loops = try EventLoopGroup(threads: 1, name: "token-url-tls")
    }

    func withTokenServer(_ body: @escaping @Sendable (HTTPURL, TestCertificates) async throws -> Void) async throws {
        let directory = TemporaryDirectory()
        let certificates = try TestCertificates.make(in: directory.path + "/certs")
        try "tok-over-tls\n".write(toFile: directory.path + "/token", atomically: true, encoding: .utf8)
        let port = try LoopbackPort.free()
        let server = try ChildProcess.spawn("/usr/bin/openssl", [
            "s_server", "-accept", "127.0.0.1:\(port)", "-cert", certificates.serverCertificate,
            "-key", certificates.serverKey, "-WWW", "-quiet",
        ], directory: directory.path, stdout: .null, stderr: .null)
        defer {
            server.signal(SIGKILL)
            _ = server.wait()
        }
        try #require(LoopbackPort.waitUntilAccepting(port))
        try await body(try HTTPURL(parsing: "https://localhost:\(port)/token"), certificates)
    }

    @Test func fetchesATokenOverAVerifiedLink() async throws {
        try await withTokenServer { url, certificates in
            let source = TokenSource.fetching(url, tls: TLSClientConfiguration(caPath: certificates.caFile))
            let token = try await TokenFetcher.fetch(source, timeout: .seconds(10), loop: loops.next())
            #expect(token == "tok-over-tls")
        }
    }

    @Test func refusesAServerOfAnotherCA() async throws {
        try await withTokenServer { url, certificates in
            let source = TokenSource.fetching(url, tls: TLSClientConfiguration(caPath: certificates.otherCAFile))
            do {
                _ = try await TokenFetcher.fetch(source, timeout: .seconds(10), loop: loops.next())
                Issue.record("fetched from an untrusted server")
            } catch {
                #expect("\(error)".contains("issued by 'CN=imsh test CA' is not trusted"), "\(error)")
                // Verification fails the same way every time: not retried as a silent source.
                #expect((error as? TokenFetchError)?.condition == .refused)
            }
        }
    }
}
