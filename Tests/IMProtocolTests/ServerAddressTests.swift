import IMProtocol
import Testing

/// The `host:port` form of a Server Reference and of engine configuration.
struct ServerAddressTests {
    @Test func readsHostPortIPv6AndBareHosts() throws {
        #expect(try ServerAddress(parsing: "broker.example:8883") == ServerAddress(host: "broker.example", port: 8883))
        #expect(try ServerAddress(parsing: " [::1]:1884 ") == ServerAddress(host: "::1", port: 1884))
        #expect(try ServerAddress(parsing: "10.0.0.1") == ServerAddress(host: "10.0.0.1", port: 1883))
        #expect(try ServerAddress(parsing: "mqtts://b.example") == ServerAddress(host: "b.example", port: 8883, tls: true))
        #expect(try ServerAddress(parsing: "b.example:1", tls: true) == ServerAddress(host: "b.example", port: 1, tls: true))
        #expect(try ServerAddress(parsing: "mqtt://b.example:2", tls: true) == ServerAddress(host: "b.example", port: 2))
        // A Server Reference may name a WebSocket server: its path, else /mqtt, ports 80 and 443.
        #expect(try ServerAddress(parsing: "ws://b.example:8080/broker") == ServerAddress(host: "b.example", port: 8080, webSocketPath: "/broker"))
        #expect(try ServerAddress(parsing: "wss://b.example") == ServerAddress(host: "b.example", port: 443, tls: true, webSocketPath: "/mqtt"))
        #expect(try ServerAddress(parsing: "ws://b.example/", tls: true) == ServerAddress(host: "b.example", port: 80, webSocketPath: "/mqtt"))
        #expect(try ServerAddress(parsing: "wss://[::1]:9/p").description == "wss://[::1]:9/p")
        #expect(ServerAddress(host: "::1", port: 1).description == "[::1]:1")
        #expect(ServerAddress(host: "h", port: 2).description == "h:2")
    }

    @Test(arguments: [
        ("", "empty server address; give host:port"),
        ("[::1", "server address '[::1': unclosed '[' in the host"),
        ("[::1]x", "server address '[::1]x': unexpected x after the IPv6 address"),
        ("::1:1883", "server address '::1:1883': put an IPv6 address in brackets, as in [::1]:1883"),
        (":1883", "server address ':1883': no host"),
        ("h:0", "server address 'h:0': port must be a number from 1 to 65535"),
        ("h:70000", "server address 'h:70000': port must be a number from 1 to 65535"),
        ("h/x:1", "server address 'h/x:1': invalid character in host h/x"),
    ])
    func refusesWhatIsNotAnAddress(text: String, reason: String) {
        #expect(throws: ServerAddressError(reason)) { try ServerAddress(parsing: text) }
    }
}
