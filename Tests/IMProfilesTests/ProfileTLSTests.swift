import IMProfiles
import IMProtocol
import IMTransport
import Testing

/// The `tls` object: merged from profile to defaults to account, files checked with their line.
struct ProfileTLSTests {
    static let pin = "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="

    @Test func mergesProfileDefaultsAndAccountFieldByField() throws {
        let fixture = ProfileFixture()
        fixture.write("-----BEGIN CERTIFICATE-----\n", to: "ca.pem")
        fixture.write("cert", to: "client.pem")
        fixture.write("key", to: "client.key")
        let (profile, diagnostics) = fixture.profile("""
        {
          "appKey": "k", "server": ["mqtts://chat.example", "mqtt://10.0.0.1"],
          "tls": {"ca": "ca.pem", "serverName": "chat.example"},
          "defaults": {"tls": {"pinSHA256": ["\(Self.pin)"]}},
          "accounts": {
            "alice": {"token": "t", "tls": {"cert": "client.pem", "key": "\(fixture.file("client.key"))"}},
            "bob": {"token": "t"}
          }
        }
        """)
        #expect(diagnostics == [])
        let alice = try #require(profile?.account(named: "alice"))
        #expect(alice.tls == TLSClientConfiguration(
            caPath: fixture.file("ca.pem"), serverName: "chat.example", certificatePath: fixture.file("client.pem"),
            keyPath: fixture.file("client.key"), pinnedSHA256: [Self.pin]))
        #expect(profile?.account(named: "bob")?.tls?.certificatePath == nil)
        #expect(profile?.account(named: "bob")?.tls?.pinnedSHA256 == [Self.pin])
        #expect(profile?.server == .addresses([
            ServerAddress(host: "chat.example", port: 8883, tls: true), ServerAddress(host: "10.0.0.1", port: 1883),
        ]))
    }

    /// (The fixture strips its directory from the messages: "missing.pem" is read from beside the profile.)
    @Test func reportsEachProblemWithItsLine() {
        let fixture = ProfileFixture()
        let diagnostics = fixture.diagnostics("""
        {
          "appKey": "k", "server": "mqtts://h",
          "tls": {"ca": "missing.pem", "insecure": true, "pinSHA256": ["abc"], "cafile": "x"},
          "accounts": {"a": {"token": "t", "tls": {"cert": "/nonexistent/c.pem"}}}
        }
        """)
        #expect(diagnostics == [
            "dev.json:3:17: error: tls.ca: cannot read missing.pem: No such file or directory",
            "dev.json:3:44: warning: tls.insecure: server certificates are not verified: anyone on the way can read and change the traffic",
            "dev.json:3:64: error: tls.pinSHA256[0]: expected the base64 SHA-256 of a public key (44 characters ending in '=')",
            "dev.json:3:72: error: tls.cafile: unknown field",
            "dev.json:4:52: error: accounts.a.tls.cert: cannot read /nonexistent/c.pem: No such file or directory",
        ])
    }
}
