import Foundation
import IMProcess
import IMTransport
import MQTT
import Testing
import TestSupport

/// The imserver binary: `imserver cert` and what it refuses, the TLS options, the listening
/// line, SIGHUP.
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

    /// Hosts that are neither addresses nor RFC 1123 host names, and the reason each gets.
    static let badHosts: [(String, String)] = [
        ("*", "'*' is not allowed: wildcards are not supported"),
        ("../../x", "'/' is not allowed: a host name has letters, digits, '-' and '.' only"),
        ("a,IP:10.0.0.1", "',' is not allowed"),
        (String(repeating: "a", count: 300), "label 1 has 300 characters, at most 63 are allowed"),
        ("host." + String(repeating: "b", count: 64), "label 2 has 64 characters, at most 63 are allowed"),
        (Array(repeating: String(repeating: "c", count: 63), count: 4).joined(separator: "."), "it has 255 characters, at most 253 are allowed"),
        ("bücher.example", "it is not ASCII; a certificate names an internationalized domain in its IDNA (punycode) form, so write it as xn--"),
        ("", "it is empty"),
        ("a..example", "it has an empty label"),
        ("x-.example", "the label 'x-' ends with '-'"),
        ("10.0.0.256", "its last label is all digits, as in an IPv4 address, but it is not a valid one"),
    ]

    @Test(arguments: badHosts)
    func certRefusesAHostThatIsNoHostNameSayingWhy(host: String, reason: String) throws {
        let directory = TemporaryDirectory()
        let out = directory.path + "/tls"
        let refused = try run(["cert", "--out", out, "--host", "localhost", "--host", host])
        #expect(refused.status == 2)
        #expect(refused.stderr.hasPrefix("imserver cert: --host '\(host)' is neither an IP address nor a host name: \(reason)"),
                "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out), "written despite the refusal")
    }

    @Test func certTakesHostNamesAndAddressesOfEitherFamily() throws {
        let directory = TemporaryDirectory()
        let out = directory.path + "/tls"
        // 253 characters, labels of 63 at most: the longest host name.
        let longest = Array(repeating: String(repeating: "d", count: 63), count: 3).joined(separator: ".") + "." + String(repeating: "e", count: 60) + "9"
        let hosts = [longest, "localhost", "127.0.0.1", "::1", "[::2]", "a-b.example.com", "X1.Example"]
        let made = try run(["cert", "--out", out] + hosts.flatMap { ["--host", $0] })
        #expect(made.status == 0, "\(made.stderr)")
        let text = try ChildProcess.run(
            "/usr/bin/openssl", ["x509", "-in", out + "/server.pem", "-noout", "-subject", "-ext", "subjectAltName"], timeout: .seconds(10))
        let described = String(decoding: text.stdout, as: UTF8.self)
        #expect(described.contains("DNS:\(longest), DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, "
                                   + "IP Address:0:0:0:0:0:0:0:2, DNS:a-b.example.com, DNS:X1.Example"), "\(described)")
        // A Common Name holds 64 characters: the subject names the first host that fits.
        #expect(described.hasPrefix("subject=CN = localhost\n"), "\(described)")
    }

    @Test func certRefusesAnOutputDirectoryOthersMayWrite() throws {
        let directory = TemporaryDirectory()
        let out = directory.path + "/tls"
        mkdir(out, 0o700)
        chmod(out, 0o777)
        let refused = try run(["cert", "--out", out, "--host", "localhost"])
        #expect(refused.status == 2)
        #expect(refused.stderr == "imserver cert: the output directory \(out) is writable by others (mode 777); fix it with: chmod go-w \(out)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty)
    }

    // Giving a directory to another user takes root (CI runs as root).
    @Test(.enabled(if: geteuid() == 0)) func certRefusesAnOutputDirectoryOfAnotherUser() throws {
        let directory = TemporaryDirectory()
        let out = directory.path + "/tls"
        mkdir(out, 0o700)
        try #require(chown(out, 65534, getegid()) == 0)
        let refused = try run(["cert", "--out", out, "--host", "localhost"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("the output directory \(out) is owned by another user (uid 65534); give --out DIR of your own"),
                "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty)
    }
}
