import IMHTTP
import IMProfiles
import Testing
import IMProtocol

/// `mqtt://HOST[:PORT]`, `ws://HOST[:PORT][/PATH]` and `socks5://[USER:PASS@]HOST[:PORT]`.
struct AddressParsingTests {
    @Test func serverAddresses() throws {
        #expect(try ServerAddress(mqttURL: "mqtt://Broker.Example:8883") == ServerAddress(host: "broker.example", port: 8883))
        #expect(try ServerAddress(mqttURL: "MQTT://127.0.0.1") == ServerAddress(host: "127.0.0.1", port: 1883))
        #expect(try ServerAddress(mqttURL: "mqtt://[FE80::1]:1") == ServerAddress(host: "fe80::1", port: 1))
        #expect(try ServerAddress(mqttURL: "mqtt://[::1]").url == "mqtt://[::1]:1883")
        #expect(try ServerAddress(mqttURL: "mqtt://h").url == "mqtt://h:1883")
        #expect(try ServerAddress(mqttURL: "mqtts://h") == ServerAddress(host: "h", port: 8883, tls: true))
        #expect(try ServerAddress(mqttURL: "MQTTS://h:9/").url == "mqtts://h:9")
        // One host:port parser for every address: an empty port is the default, as in http://h:/.
        #expect(try ServerAddress(mqttURL: "mqtt://h:").url == "mqtt://h:1883")
    }

    @Test func webSocketAddressesDefaultToPort80Or443AndPathMQTT() throws {
        #expect(try ServerAddress(mqttURL: "ws://h") == ServerAddress(host: "h", port: 80, webSocketPath: "/mqtt"))
        #expect(try ServerAddress(mqttURL: "WSS://H/") == ServerAddress(host: "h", port: 443, tls: true, webSocketPath: "/mqtt"))
        #expect(try ServerAddress(mqttURL: "ws://[::1]:8080/a/b").url == "ws://[::1]:8080/a/b")
        #expect(try ServerAddress(mqttURL: "wss://h:8443/mqtt").description == "wss://h:8443/mqtt")
        #expect(try ServerAddress(mqttURL: "ws://h:9").scheme == "ws")
    }

    @Test(arguments: [
        ("", "address is empty or has spaces, control or non-ASCII characters; expected mqtt://HOST:PORT, mqtts://HOST:PORT, ws://HOST:PORT/PATH or wss://HOST:PORT/PATH"),
        ("mqtt://h :1", "address is empty or has spaces, control or non-ASCII characters; expected mqtt://HOST:PORT, mqtts://HOST:PORT, ws://HOST:PORT/PATH or wss://HOST:PORT/PATH"),
        ("tcp://h", "unsupported scheme tcp; expected mqtt://HOST:PORT, mqtts://HOST:PORT, ws://HOST:PORT/PATH or wss://HOST:PORT/PATH"),
        ("mqtt://", "no host"),
        ("mqtt://:1883", "no host"),
        ("mqtt://h:0", "port must be a number from 1 to 65535"),
        ("mqtt://h:+1", "port must be a number from 1 to 65535"),
        ("mqtt://h/x", "only a host and port may follow mqtt://; expected mqtt://HOST:PORT, mqtts://HOST:PORT, ws://HOST:PORT/PATH or wss://HOST:PORT/PATH"),
        ("mqtt://h!", "invalid character in host h!"),
        ("mqtt://[::g]:1", "invalid IPv6 address ::g"),
        ("mqtt://[::1]x", "unexpected x after the IPv6 address"),
        ("ws://h:1/mqtt?x=1", "a WebSocket path takes no query or fragment; expected mqtt://HOST:PORT, mqtts://HOST:PORT, ws://HOST:PORT/PATH or wss://HOST:PORT/PATH"),
        ("wss://h:0/mqtt", "port must be a number from 1 to 65535"),
    ])
    func badServerAddresses(text: String, reason: String) {
        #expect(throws: URLParseError(reason)) { try ServerAddress(mqttURL: text) }
    }

    @Test func proxies() throws {
        #expect(try ProxyAddress(parsing: "socks5://127.0.0.1") == ProxyAddress(host: "127.0.0.1", port: 1080))
        let full = try ProxyAddress(parsing: "SOCKS5://us%3Aer:p@ss@[::1]:9050")
        #expect(full == ProxyAddress(host: "::1", port: 9050, username: "us:er", password: Secret("p@ss")))
        #expect(full.description == "socks5://us:er:…@[::1]:9050")
    }

    @Test(arguments: [
        ("socks4://h:1", "unsupported scheme socks4; expected socks5://[USER:PASS@]HOST:PORT"),
        ("socks5://u@h:1", "give both user and password, as in socks5://USER:PASS@HOST:PORT"),
        ("socks5://:p@h:1", "the proxy user must be 1 to 255 bytes"),
        ("socks5://u:%zz@h:1", "bad percent-encoding in the proxy password"),
        ("socks5://u:%ff@h:1", "the proxy password is not UTF-8 once decoded"),
        ("socks5://h:1/path", "only credentials, a host and a port may follow socks5://; expected socks5://[USER:PASS@]HOST:PORT"),
        ("socks5://h:70000", "port must be a number from 1 to 65535"),
    ])
    func badProxies(text: String, reason: String) {
        #expect(throws: URLParseError(reason)) { try ProxyAddress(parsing: text) }
    }
}
