import Glibc
import IMTransport
import Testing

struct SystemErrorTests {
    @Test func namesTheCallAndTheReason() {
        let error = SystemError("connect", code: ECONNREFUSED)
        #expect(error.description == "connect: Connection refused (errno \(ECONNREFUSED))")
    }

    @Test func transportErrorsSayWhatToCheck() {
        #expect(TransportError.connectTimedOut(host: "::1", port: 1883, after: .seconds(3)).description
            == "could not connect to [::1]:1883 within 3 s "
            + "(the server did not answer: is it overloaded, or is a firewall dropping packets?)")
        #expect(TransportError.hostNotFound(name: "mqtt.example", reason: "Name or service not known").description
            == "cannot resolve host name 'mqtt.example': Name or service not known (check the spelling and the DNS settings)")
        let unreachable = TransportError.proxyUnreachable(
            proxy: "10.0.0.1", port: 1080, reason: .connectionRefused(host: "10.0.0.1", port: 1080))
        #expect(unreachable.description.hasPrefix("SOCKS5 proxy 10.0.0.1:1080 is unreachable: 10.0.0.1:1080 refused"))
        #expect(unreachable.isProxyFailure)
        #expect(!TransportError.closedByPeer.isProxyFailure)
        #expect(SOCKS5Reply(rawValue: 0x42).description == "unknown reply (reply 0x42)")
    }

    @Test func parsesNumericAddresses() {
        #expect(SocketAddress(ipAddress: "127.0.0.1", port: 80)?.description == "127.0.0.1:80")
        #expect(SocketAddress(ipAddress: "[::1]", port: 80)?.description == "[::1]:80")
        #expect(SocketAddress(ipAddress: "localhost", port: 80) == nil)
    }
}
