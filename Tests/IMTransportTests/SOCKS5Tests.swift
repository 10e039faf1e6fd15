import IMTransport
import Testing

/// Connections through a SOCKS5 proxy written here, which tunnels only to loopback.
struct SOCKS5Tests {
    private func connect(
        to host: String, port: UInt16, via proxy: SOCKS5Proxy, on loop: EventLoop
    ) async throws(TransportError) -> Connection {
        try await Connection.connect(
            to: host, port: port, options: ConnectOptions(timeout: .seconds(5), proxy: proxy), on: loop)
    }

    @Test func tunnelsWithoutAuthentication() async throws {
        let server = try EchoServer()
        let proxy = try TestSOCKS5Proxy(targetPort: server.port)
        let loop = try EventLoop(name: "client")
        defer {
            loop.shutdown()
            proxy.stop()
            server.shutdown()
        }
        let port = server.port
        try await withTimeout(.seconds(20)) {
            let connection = try await connect(
                to: "127.0.0.1", port: port, via: SOCKS5Proxy(host: "127.0.0.1", port: proxy.port), on: loop)
            defer { connection.close() }
            try await expectEcho(of: [TestFrames.pingRequest, TestFrames.publish(payloadSize: 500)], over: connection)
        }
        #expect(proxy.requests == [.init(addressType: 1, host: "127.0.0.1", port: port)])
    }

    @Test func tunnelsWithUsernameAndPasswordToNamedAndIPv6Targets() async throws {
        let server = try EchoServer()
        let proxy = try TestSOCKS5Proxy(targetPort: server.port, credentials: ("alice", "s3cret"))
        let loop = try EventLoop(name: "client")
        defer {
            loop.shutdown()
            proxy.stop()
            server.shutdown()
        }
        let settings = SOCKS5Proxy(
            host: "127.0.0.1", port: proxy.port, credentials: .init(username: "alice", password: "s3cret"))
        try await withTimeout(.seconds(20)) {
            // The proxy resolves names itself: the name must travel as a domain-name address.
            for target in ["localhost", "::1"] {
                let connection = try await connect(to: target, port: 1883, via: settings, on: loop)
                defer { connection.close() }
                try await expectEcho(of: [TestFrames.publish(payloadSize: 64)], over: connection)
            }
        }
        #expect(proxy.requests == [
            .init(addressType: 3, host: "localhost", port: 1883),
            .init(addressType: 4, host: "0:0:0:0:0:0:0:1", port: 1883),
        ])
    }

    @Test func wrongPasswordIsAnAuthenticationFailure() async throws {
        let proxy = try TestSOCKS5Proxy(targetPort: try RawSocket.unusedPort(), credentials: ("alice", "s3cret"))
        let loop = try EventLoop(name: "client")
        defer {
            loop.shutdown()
            proxy.stop()
        }
        let settings = SOCKS5Proxy(
            host: "127.0.0.1", port: proxy.port, credentials: .init(username: "alice", password: "wrong"))
        try await withTimeout(.seconds(10)) {
            let error = await failure { () async throws(TransportError) in
                try await connect(to: "127.0.0.1", port: 1883, via: settings, on: loop)
            }
            #expect(error == .proxyAuthenticationFailed(proxy: "127.0.0.1", port: proxy.port))
            #expect(error?.isProxyFailure == true)
            #expect(error?.description.contains("rejected the user name and password") == true)
        }
    }

    @Test func proxyDemandingCredentialsWeDoNotHaveRefusesEveryMethod() async throws {
        let proxy = try TestSOCKS5Proxy(targetPort: try RawSocket.unusedPort(), credentials: ("alice", "s3cret"))
        let loop = try EventLoop(name: "client")
        defer {
            loop.shutdown()
            proxy.stop()
        }
        try await withTimeout(.seconds(10)) {
            let error = await failure { () async throws(TransportError) in
                try await connect(to: "127.0.0.1", port: 1883, via: SOCKS5Proxy(host: "127.0.0.1", port: proxy.port), on: loop)
            }
            #expect(error == .proxyNoAcceptableMethod(proxy: "127.0.0.1", port: proxy.port, offeredCredentials: false))
        }
    }

    @Test func proxyRefusingTheTargetIsReportedWithItsReply() async throws {
        let proxy = try TestSOCKS5Proxy(targetPort: try RawSocket.unusedPort(), refusal: 0x05)
        let loop = try EventLoop(name: "client")
        defer {
            loop.shutdown()
            proxy.stop()
        }
        try await withTimeout(.seconds(10)) {
            let error = await failure { () async throws(TransportError) in
                try await connect(to: "127.0.0.1", port: 1883, via: SOCKS5Proxy(host: "127.0.0.1", port: proxy.port), on: loop)
            }
            #expect(error == .proxyRefused(
                proxy: "127.0.0.1", port: proxy.port, target: "127.0.0.1:1883", reply: .connectionRefused))
            #expect(error?.description.contains("connection refused by the destination") == true)
        }
    }

    @Test func proxyNotListeningIsUnreachable() async throws {
        let proxyPort = try RawSocket.unusedPort()
        let loop = try EventLoop(name: "client")
        defer { loop.shutdown() }
        try await withTimeout(.seconds(10)) {
            let error = await failure { () async throws(TransportError) in
                try await connect(to: "127.0.0.1", port: 1883, via: SOCKS5Proxy(host: "127.0.0.1", port: proxyPort), on: loop)
            }
            #expect(error == .proxyUnreachable(
                proxy: "127.0.0.1", port: proxyPort, reason: .connectionRefused(host: "127.0.0.1", port: proxyPort)))
        }
    }
}
