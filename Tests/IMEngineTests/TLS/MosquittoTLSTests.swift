import Foundation
import IMEngine
import IMProtocol
import IMTransport
import Testing
import TestSupport

/// The engine over TLS against a stock mosquitto with a TLS listener: verification on by
/// default, each refusal named and not retried, client certificates where the broker wants them.
@Suite(.timeLimit(.minutes(2)), .serialized)
struct MosquittoTLSTests {
    /// A broker with `certificate`, the test's certificates, and a way to run sessions against it.
    struct Setup {
        let directory = TemporaryDirectory()
        let certificates: TestCertificates
        let broker: StockMosquitto
        /// The connections in the log when the broker was ready (its own probe's).
        let baseline: Int

        init(expired: Bool = false, requireClientCertificate: Bool = false) throws {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
            certificates = try TestCertificates.make(in: directory.path + "/certs")
            broker = try StockMosquitto(
                directory: directory.path,
                certificate: expired ? certificates.expiredCertificate : certificates.serverCertificate,
                key: certificates.serverKey, clientCA: requireClientCertificate ? certificates.caFile : nil,
                users: [TestTokens.appKey: TestTokens.token(for: "alice")])
            // mosquitto logs its readiness probe's connection a moment after accepting it:
            // count the test's connections from that line on, not from an empty log.
            let deadline = ContinuousClock.now + .seconds(5)
            while Self.connections(in: broker.output) < 1, ContinuousClock.now < deadline { usleep(20_000) }
            baseline = Self.connections(in: broker.output)
        }

        /// The connections mosquitto's log names.
        static func connections(in output: String) -> Int {
            output.components(separatedBy: "New connection from").count + output.components(separatedBy: "Client connection from").count - 2
        }

        /// Connects alice to the broker over `tls` and returns the session and the call's error.
        func connect(
            _ tls: TLSClientConfiguration, host: String = "localhost", secure: Bool = true, timeout: Duration? = nil
        ) async throws -> (Session, SessionEngine, EngineError?) {
            let engine = try SessionEngine(EngineConfiguration(
                appKey: TestTokens.appKey, servers: [ServerAddress(host: host, port: broker.port, tls: secure)],
                dataDirectory: directory.path + "/data", callbacks: .immediate, networkMonitor: .none,
                eventLoopThreads: 1, attemptTimeout: .seconds(3)))
            let session = engine.makeSession(ConnectParameters(
                token: TestTokens.token(for: "alice"), timeout: timeout, deviceID: "phone-alice", tls: tls))
            return (session, engine, await session.connectionError())
        }

        /// How many TLS clients the broker saw (past its own readiness probe): one means no retry.
        var connectionsSeen: Int { Self.connections(in: broker.output) - baseline }

        func stop() { broker.stop() }
    }

    /// Runs `body` against a fresh broker, stopped afterwards whatever happens.
    func withBroker(
        expired: Bool = false, requireClientCertificate: Bool = false, _ body: @escaping @Sendable (Setup) async throws -> Void
    ) async throws {
        let setup = try Setup(expired: expired, requireClientCertificate: requireClientCertificate)
        let result = await Result { try await withTimeout(.seconds(30)) { try await body(setup) } }
        setup.stop()
        try result.get()
    }

    @Test func connectsWithTheRightCAAndReportsTheProtocolAndCipher() async throws {
        try await withBroker { setup in
            let (session, engine, error) = try await setup.connect(TLSClientConfiguration(caPath: setup.certificates.caFile))
            #expect(error == nil)
            let link = await session.connectedTLS
            #expect(link?.version == "TLSv1.3")
            #expect(link?.cipher.isEmpty == false)
            #expect(await session.connectedServer?.tls == true)
            await engine.shutdown()
        }
    }

    /// Each refusal: the message a person needs, status unconnected with code 34020, no retry.
    func expectRefusal(_ setup: Setup, _ tls: TLSClientConfiguration, host: String = "localhost", saying words: [String]) async throws {
        let (session, engine, error) = try await setup.connect(tls, host: host)
        #expect(error?.status == .unconnected)
        #expect(error?.code == .tlsFailure)
        for word in words { #expect(error?.description.contains(word) == true, "\(String(describing: error))") }
        #expect(await session.statuses == [.connecting, .unconnected])
        #expect(setup.connectionsSeen <= 1, "the refusal was retried")
        await engine.shutdown()
    }

    @Test func refusesAServerIssuedByAnotherCA() async throws {
        try await withBroker { setup in
            try await expectRefusal(setup, TLSClientConfiguration(caPath: setup.certificates.otherCAFile),
                                    saying: ["CN=localhost", "issued by 'CN=imsh test CA'", "not trusted"])
        }
    }

    @Test func refusesACertificateForAnotherName() async throws {
        try await withBroker { setup in
            try await expectRefusal(
                setup, TLSClientConfiguration(caPath: setup.certificates.caFile, serverName: "chat.example"),
                saying: ["not for 'chat.example'", "DNS:localhost"])
        }
    }

    @Test func refusesAnExpiredCertificate() async throws {
        try await withBroker(expired: true) { setup in
            try await expectRefusal(setup, TLSClientConfiguration(caPath: setup.certificates.caFile),
                                    saying: ["CN=localhost", "expired on"])
        }
    }

    @Test func refusesAPinMismatchEvenWithAValidChainAndConnectsWithTheRightPin() async throws {
        try await withBroker { setup in
            let ca = setup.certificates.caFile
            try await expectRefusal(
                setup, TLSClientConfiguration(caPath: ca, pinnedSHA256: ["AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="]),
                saying: ["pinSHA256", try setup.certificates.serverKeyPin()])
            let pinned = TLSClientConfiguration(caPath: ca, pinnedSHA256: [try setup.certificates.serverKeyPin()])
            let (_, engine, error) = try await setup.connect(pinned)
            #expect(error == nil)
            await engine.shutdown()
        }
    }

    @Test func refusesAnUnreadableKeyFileWithoutDialling() async throws {
        try await withBroker { setup in
            let missing = setup.directory.path + "/no-such.key"
            try await expectRefusal(
                setup,
                TLSClientConfiguration(caPath: setup.certificates.caFile, certificatePath: setup.certificates.clientCertificate,
                                       keyPath: missing),
                saying: ["cannot read the key file \(missing)"])
            #expect(setup.connectionsSeen == 0)
        }
    }

    @Test func connectsWithAClientCertificateWhereTheBrokerRequiresOne() async throws {
        try await withBroker(requireClientCertificate: true) { setup in
            let certificates = setup.certificates
            let (_, engine, error) = try await setup.connect(TLSClientConfiguration(
                caPath: certificates.caFile, certificatePath: certificates.clientCertificate, keyPath: certificates.clientKey))
            #expect(error == nil)
            await engine.shutdown()
        }
    }

    /// TLS 1.3 lets the client finish its handshake before the server checks for a certificate:
    /// the "certificate required" alert comes after, and ends the connect like any refusal,
    /// naming the profile fields that fix it, however long the connect may try (0: forever).
    @Test(arguments: [nil, Duration.zero])
    func aMissingClientCertificateIsRefusedOnceNamingTheAlert(timeout: Duration?) async throws {
        try await withBroker(requireClientCertificate: true) { setup in
            let (session, engine, error) = try await setup.connect(
                TLSClientConfiguration(caPath: setup.certificates.caFile), timeout: timeout)
            #expect(error?.status == .unconnected)
            #expect(error?.code == .tlsFailure)
            for word in ["certificate required", "tls.cert", "tls.key"] {
                #expect(error?.description.contains(word) == true, "\(String(describing: error))")
            }
            #expect(await session.statuses == [.connecting, .unconnected])
            let retried = try await session.connectionLog().filter { $0.detail.hasPrefix("attempt failed") }
            #expect(setup.connectionsSeen <= 1 && retried.isEmpty, "the refusal was retried: \(retried)")
            await engine.shutdown()
        }
    }

    /// mosquitto closes a plaintext CONNECT on its TLS port without an alert: the retries say
    /// why, and the connect timeout ends them (an imserver TLS port sends an alert: see IMServerTests).
    @Test func aTLSPortDialledAsMqttSaysToUseMqttsAndDoesNotHang() async throws {
        try await withBroker { setup in
            let (session, engine, error) = try await setup.connect(
                TLSClientConfiguration(), host: "127.0.0.1", secure: false, timeout: .seconds(2))
            #expect(error?.status == .timeout)
            let details = await session.statusHistory.map(\.detail)
            #expect(details.contains { $0.contains("before CONNACK (if that port speaks TLS, use mqtts://)") }, "\(details)")
            await engine.shutdown()
        }
    }

    /// The reverse: a plaintext MQTT server behind mqtts:// fails the handshake quickly, not by timeout.
    @Test func aPlaintextPortDialledAsMqttsSaysSoWithinTheConnectTimeout() async throws {
        try await withIntegration { harness in
            let directory = TemporaryDirectory()
            let server = ServerAddress(host: "127.0.0.1", port: harness.server.address.port, tls: true)
            let engine = try SessionEngine(EngineConfiguration(
                appKey: IntegrationServer.appKey, servers: [server], dataDirectory: directory.path, callbacks: .immediate,
                networkMonitor: .none, eventLoopThreads: 1, attemptTimeout: .seconds(3)))
            let session = engine.makeSession(ConnectParameters(
                token: try await harness.server.token("alice"), timeout: .seconds(2), deviceID: "phone-alice"))
            let started = ContinuousClock.now
            let error = await session.connectionError()
            #expect(ContinuousClock.now - started < .seconds(5))
            #expect(error != nil)
            let details = await session.statusHistory.map(\.detail)
            #expect(details.contains { $0.contains("does not speak TLS") && $0.contains("use mqtt://") }, "\(details)")
            await engine.shutdown()
        }
    }
}
