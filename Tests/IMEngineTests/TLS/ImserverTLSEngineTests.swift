import Foundation
import IMEngine
import IMProtocol
import IMServer
import IMTransport
import Testing
import TestSupport

/// The engine against imserver's own TLS listener: ALPN "mqtt" agreed, and a TLS port dialled
/// as mqtt:// recognised by the alert it answers with.
@Suite(.timeLimit(.minutes(1)), .serialized)
struct ImserverTLSEngineTests {
    /// Runs `body` with an imserver that has a TLS listener, the test CA, and an engine factory.
    func withTLSServer(
        requireClientCertificate: Bool = false,
        _ body: @escaping @Sendable (EmbeddedServer, TestCertificates, @Sendable (ServerAddress) throws -> SessionEngine) async throws -> Void
    ) async throws {
        let directory = TemporaryDirectory()
        let certificates = try TestCertificates.make(in: directory.path + "/certs")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: certificates.serverKey)
        var options = EmbeddedServer.Options(
            configuration: ServerConfiguration(apps: [IntegrationServer.app()]), dataDirectory: directory.path + "/server")
        options.tls = try TLSServerIdentity(
            certificate: certificates.serverCertificate, key: certificates.serverKey,
            clientCA: requireClientCertificate ? certificates.caFile : nil)
        options.mqttTLSPort = 0
        options.webSocketPort = 0
        let server = try await EmbeddedServer.start(options)
        let makeEngine: @Sendable (ServerAddress) throws -> SessionEngine = { address in
            try SessionEngine(EngineConfiguration(
                appKey: IntegrationServer.appKey, servers: [address], dataDirectory: directory.path + "/engine",
                callbacks: .immediate, networkMonitor: .none, eventLoopThreads: 1, attemptTimeout: .seconds(3)))
        }
        let result = await Result { try await withTimeout(.seconds(30)) { try await body(server, certificates, makeEngine) } }
        await server.stop()
        try result.get()
    }

    @Test func connectsOverTLSWithALPNMqtt() async throws {
        try await withTLSServer { server, certificates, makeEngine in
            let port = try #require(server.mqttTLSAddress?.port)
            let engine = try makeEngine(ServerAddress(host: "localhost", port: port, tls: true))
            let token = try await server.backend.issueToken(appKey: IntegrationServer.appKey, userID: "alice")
            let session = engine.makeSession(ConnectParameters(
                token: token, deviceID: "phone-alice", tls: TLSClientConfiguration(caPath: certificates.caFile)))
            #expect(try await session.connect() == "alice")
            let link = await session.connectedTLS
            #expect(link?.alpn == "mqtt")
            #expect(link?.version == "TLSv1.3")
            await engine.shutdown()
        }
    }

    /// `--client-ca` without a client certificate: the alert after the client's handshake ends
    /// the connect at the first attempt, whether the connect may try for ever (0) or not.
    @Test(arguments: [nil, Duration.zero])
    func aMissingClientCertificateIsNamedAndNotRetried(timeout: Duration?) async throws {
        try await withTLSServer(requireClientCertificate: true) { server, certificates, makeEngine in
            let port = try #require(server.mqttTLSAddress?.port)
            let engine = try makeEngine(ServerAddress(host: "localhost", port: port, tls: true))
            let token = try await server.backend.issueToken(appKey: IntegrationServer.appKey, userID: "alice")
            let session = engine.makeSession(ConnectParameters(
                token: token, timeout: timeout, deviceID: "phone-alice", tls: TLSClientConfiguration(caPath: certificates.caFile)))
            let error = await session.connectionError()
            #expect(error?.code == .tlsFailure)
            #expect(error?.description.contains("certificate required") == true, "\(String(describing: error))")
            #expect(await session.statuses == [.connecting, .unconnected])
            let retried = try await session.connectionLog().filter { $0.detail.hasPrefix("attempt failed") }
            #expect(retried.isEmpty, "\(retried)")
            await engine.shutdown()
        }
    }

    @Test func aTLSPortDialledAsMqttIsNamedAndNotRetried() async throws {
        try await withTLSServer { server, _, makeEngine in
            let port = try #require(server.mqttTLSAddress?.port)
            let engine = try makeEngine(ServerAddress(host: "127.0.0.1", port: port))
            let token = try await server.backend.issueToken(appKey: IntegrationServer.appKey, userID: "alice")
            let session = engine.makeSession(ConnectParameters(token: token, deviceID: "phone-alice"))
            let error = await session.connectionError()
            #expect(error?.code == .tlsFailure)
            #expect(error?.description.contains("this port speaks TLS: use mqtts://") == true, "\(String(describing: error))")
            #expect(await session.statuses == [.connecting, .unconnected])
            await engine.shutdown()
        }
    }

    /// ws:// to a TLS port and wss:// to a plain WebSocket port: each named with the scheme
    /// that would work, and not retried.
    @Test(arguments: [false, true])
    func aWebSocketAddressWithTheWrongSchemeIsNamed(secure: Bool) async throws {
        try await withTLSServer { server, certificates, makeEngine in
            let port = try #require(secure ? server.webSocketAddress?.port : server.mqttTLSAddress?.port)
            let engine = try makeEngine(ServerAddress(host: "localhost", port: port, tls: secure, webSocketPath: "/mqtt"))
            let token = try await server.backend.issueToken(appKey: IntegrationServer.appKey, userID: "alice")
            let session = engine.makeSession(ConnectParameters(
                token: token, deviceID: "web-alice", platform: .web, tls: TLSClientConfiguration(caPath: certificates.caFile)))
            let error = await session.connectionError()
            #expect(error?.code == (secure ? .tlsFailure : .webSocketFailure), "\(String(describing: error))")
            let hint = secure ? "use ws://" : "that port wants wss://"
            #expect(error?.description.contains(hint) == true, "\(String(describing: error))")
            #expect(await session.statuses == [.connecting, .unconnected])
            await engine.shutdown()
        }
    }
}
