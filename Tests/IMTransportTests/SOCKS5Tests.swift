import IMTransport
import Testing
import TestSupport

/// Connections through a SOCKS5 proxy written here, which tunnels only to loopback.
struct SOCKS5Tests {
    /// The error of connecting to 127.0.0.1:1883 through `proxy`, on a loop of its own.
    private func failureThrough(_ proxy: SOCKS5Proxy) async throws -> TransportError? {
        let loop = try EventLoop(name: "client")
        defer { loop.shutdown() }
        return try await withTimeout(.seconds(10)) {
            await failure { () async throws(TransportError) in try await connect(port: 1883, on: loop, proxy: proxy) }
        }
    }

    @Test func tunnelsWithoutAuthentication() async throws {
        try await withEchoServer { port, loop in
            let proxy = try TestSOCKS5Proxy(targetPort: port)
            defer { proxy.stop() }
            let connection = try await connect(port: port, on: loop, proxy: SOCKS5Proxy(host: "127.0.0.1", port: proxy.port))
            defer { connection.close() }
            try await expectEcho(of: [TestFrames.pingRequest, TestFrames.publish(payloadSize: 500)], over: connection)
            #expect(proxy.requests == [.init(addressType: 1, host: "127.0.0.1", port: port)])
        }
    }

    @Test func tunnelsWithUsernameAndPasswordToNamedAndIPv6Targets() async throws {
        try await withEchoServer { port, loop in
            let proxy = try TestSOCKS5Proxy(targetPort: port, credentials: ("alice", "s3cret"))
            defer { proxy.stop() }
            let settings = SOCKS5Proxy(
                host: "127.0.0.1", port: proxy.port, credentials: .init(username: "alice", password: "s3cret"))
            // The proxy resolves names itself: the name must travel as a domain-name address.
            for target in ["localhost", "::1"] {
                let connection = try await connect(to: target, port: 1883, on: loop, proxy: settings)
                defer { connection.close() }
                try await expectEcho(of: [TestFrames.publish(payloadSize: 64)], over: connection)
            }
            #expect(proxy.requests == [
                .init(addressType: 3, host: "localhost", port: 1883),
                .init(addressType: 4, host: "0:0:0:0:0:0:0:1", port: 1883),
            ])
        }
    }

    @Test func wrongPasswordIsAnAuthenticationFailure() async throws {
        let proxy = try TestSOCKS5Proxy(targetPort: try LoopbackPort.free(), credentials: ("alice", "s3cret"))
        defer { proxy.stop() }
        let error = try await failureThrough(SOCKS5Proxy(
            host: "127.0.0.1", port: proxy.port, credentials: .init(username: "alice", password: "wrong")))
        #expect(error == .proxyAuthenticationFailed(proxy: "127.0.0.1", port: proxy.port))
        #expect(error?.isProxyFailure == true)
        #expect(error?.description.contains("rejected the user name and password") == true)
    }

    @Test func proxyDemandingCredentialsWeDoNotHaveRefusesEveryMethod() async throws {
        let proxy = try TestSOCKS5Proxy(targetPort: try LoopbackPort.free(), credentials: ("alice", "s3cret"))
        defer { proxy.stop() }
        let error = try await failureThrough(SOCKS5Proxy(host: "127.0.0.1", port: proxy.port))
        #expect(error == .proxyNoAcceptableMethod(proxy: "127.0.0.1", port: proxy.port, offeredCredentials: false))
    }

    @Test func proxyRefusingTheTargetIsReportedWithItsReply() async throws {
        let proxy = try TestSOCKS5Proxy(targetPort: try LoopbackPort.free(), refusal: 0x05)
        defer { proxy.stop() }
        let error = try await failureThrough(SOCKS5Proxy(host: "127.0.0.1", port: proxy.port))
        #expect(error == .proxyRefused(
            proxy: "127.0.0.1", port: proxy.port, target: "127.0.0.1:1883", reply: .connectionRefused))
        #expect(error?.description.contains("connection refused by the destination") == true)
    }

    @Test func proxyNotListeningIsUnreachable() async throws {
        let refusing = try LoopbackPortHold()
        defer { refusing.release() }
        let proxyPort = refusing.port
        let error = try await failureThrough(SOCKS5Proxy(host: "127.0.0.1", port: proxyPort))
        #expect(error == .proxyUnreachable(
            proxy: "127.0.0.1", port: proxyPort, reason: .connectionRefused(host: "127.0.0.1", port: proxyPort)))
        #expect(error?.isProxyFailure == true)
    }
}
