import Foundation
import IMProcess
import IMTransport
import MQTT
import Testing
import TestSupport

/// The imserver binary: `imserver cert`, the TLS options, the listening line, SIGHUP.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct ImserverTLSProcessTests {
    func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let output = try ChildProcess.run(ImserverProcess.binary, arguments, timeout: .seconds(20))
        return (output.termination.status, String(decoding: output.stdout, as: UTF8.self), String(decoding: output.stderr, as: UTF8.self))
    }

    @Test func certWritesAPrivateCAAndAServerCertificateItSigns() throws {
        let directory = TemporaryDirectory()
        let out = directory.path + "/tls"
        let made = try run(["cert", "--out", out, "--host", "localhost", "--host", "127.0.0.1"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout == ["ca.pem", "ca.key", "server.pem", "server.key"].map { "wrote \(out)/\($0)\n" }.joined())
        for name in ["", "/ca.key", "/server.key"] {
            let mode = try FileManager.default.attributesOfItem(atPath: out + name)[.posixPermissions] as? Int
            #expect(mode == (name.isEmpty ? 0o700 : 0o600), "\(name)")
        }
        let verified = try ChildProcess.run(
            "/usr/bin/openssl", ["verify", "-CAfile", out + "/ca.pem", out + "/server.pem"], timeout: .seconds(10))
        #expect(String(decoding: verified.stdout, as: UTF8.self) == "\(out)/server.pem: OK\n")
        let text = try ChildProcess.run("/usr/bin/openssl", ["x509", "-in", out + "/server.pem", "-noout", "-text"], timeout: .seconds(10))
        let described = String(decoding: text.stdout, as: UTF8.self)
        #expect(described.contains("DNS:localhost, IP Address:127.0.0.1") && described.contains("NIST CURVE: P-256"))
        let again = try run(["cert", "--out", out, "--host", "localhost"])
        #expect(again.status == 1 && again.stderr.contains("exists"), "an existing CA key is never overwritten")
    }

    @Test func servesTLSNamesEveryListenerAndReloadsOnSIGHUPWithoutDroppingClients() async throws {
        let directory = TemporaryDirectory()
        let out = directory.path + "/tls"
        #expect(try run(["cert", "--out", out, "--host", "localhost"]).status == 0)
        let server = try await ImserverProcess.start(dataDirectory: directory.path + "/data", extra: [
            "--tls-listen", "127.0.0.1:0", "--api-tls-listen", "127.0.0.1:0", "--cert", out + "/server.pem", "--key", out + "/server.key",
        ])
        #expect(Set(server.listening.keys) == ["event", "mqtt", "api", "mqtts", "https"])
        let port = try #require(server.listening["mqtts"]?.split(separator: ":").last.flatMap { UInt16($0) })
        let tls = TLSConnectSettings(
            context: try TLSContext.client(TLSClientConfiguration(caPath: out + "/ca.pem")), serverName: "localhost")
        let client = try await MQTTTestClient.open(port: port, tls: tls)
        let connack = try await client.login(appKey: ImserverProcess.appKey, token: try ImserverProcess.token("alice"), device: "d1")
        #expect(connack?.reasonCode == .success)

        server.process.signal(SIGHUP)
        let reloaded = try await offPool { server.readLine() }
        #expect(reloaded == #"{"event":"reloaded","certificate":"\#(out)/server.pem"}"#)
        try await client.send(.pingreq)
        #expect(await client.next() == .pingresp)
        #expect(try await server.stop(SIGTERM) == .exited(0))
    }

    @Test func refusesAKeyOthersCanReadAndSaysHowToFix() throws {
        let directory = TemporaryDirectory()
        let out = directory.path + "/tls"
        #expect(try run(["cert", "--out", out, "--host", "localhost"]).status == 0)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: out + "/server.key")
        let refused = try run([
            "--listen", "127.0.0.1:0", "--api", "127.0.0.1:0", "--data", directory.path + "/data", "--tls-listen", "127.0.0.1:0",
            "--cert", out + "/server.pem", "--key", out + "/server.key",
        ])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("is readable by group or others (mode 644)") && refused.stderr.contains("run chmod 600 \(out)/server.key"),
                "\(refused.stderr)")
    }
}
