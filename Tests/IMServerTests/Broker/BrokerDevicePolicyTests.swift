import IMProtocol
import IMServer
import MQTT
import Testing
import TestSupport

/// Contract section 3, each case checked on both devices.
@Suite(.timeLimit(.minutes(1)))
struct BrokerDevicePolicyTests {
    @Test func aLoginOfDeviceBKicksDeviceA() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let deviceA = try await server.loggedIn("alice", device: "phone-a")
        let deviceB = try await server.loggedIn("alice", device: "phone-b")
        guard case .disconnect(let kicked)? = await deviceA.next() else { Issue.record("A was not kicked"); return }
        #expect(kicked.reasonCode == .sessionTakenOver)
        #expect(kicked.properties.userProperty(IMUserProperty.error) == "other-device-login")
        #expect(await deviceA.closed())
        try await deviceB.send(.pingreq)
        #expect(await deviceB.next() == .pingresp)
        await server.stop()
    }

    @Test func anotherDeviceClassStaysOnline() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let phone = try await server.loggedIn("alice", device: "phone-a")
        let laptop = try await server.loggedIn("alice", device: "laptop-a", platform: "pc")
        try await phone.send(.pingreq)
        #expect(await phone.next() == .pingresp)
        try await laptop.send(.pingreq)
        #expect(await laptop.next() == .pingresp)
        await server.stop()
    }

    /// Device B is online; device A reconnects (im-reconnect 1), with or without im-kick-enable,
    /// on an app that does or does not let clients choose.
    @Test(arguments: [(false, false), (false, true), (true, false), (true, true)])
    func reconnectionOfAWhileBIsOnline(appAllows: Bool, kickEnable: Bool) async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory, apps: [TestServer.app(clientKickPolicy: appAllows)])
        let deviceB = try await server.loggedIn("alice", device: "phone-b")
        let deviceA = try await MQTTTestClient.open(port: server.port)
        let connack = try await deviceA.login(
            appKey: TestServer.appKey, token: try await server.token("alice"), device: "phone-a",
            reconnect: true, kickEnable: kickEnable)
        if appAllows && kickEnable {
            // A gives way: refused, B stays online.
            #expect(connack?.reasonCode == .notAuthorized)
            #expect(connack?.properties.userProperty(IMUserProperty.error) == "other-device-online")
            #expect(await deviceA.closed())
            try await deviceB.send(.pingreq)
            #expect(await deviceB.next() == .pingresp)
        } else {
            // A wins: B is kicked with 0x8E, A is online.
            #expect(connack?.reasonCode == .success)
            guard case .disconnect(let kicked)? = await deviceB.next() else { Issue.record("B was not kicked"); return }
            #expect(kicked.reasonCode == .sessionTakenOver)
            #expect(kicked.properties.userProperty(IMUserProperty.error) == "other-device-login")
            try await deviceA.send(.pingreq)
            #expect(await deviceA.next() == .pingresp)
        }
        await server.stop()
    }

    @Test func theSameClientIdentifierTakesTheSessionOver() async throws {
        let directory = TemporaryDirectory()
        let server = try await TestServer.start(directory: directory)
        let first = try await server.loggedIn("alice", device: "phone-a")
        let second = try await server.loggedIn("alice", device: "phone-a")
        guard case .disconnect(let takenOver)? = await first.next() else { Issue.record("no takeover"); return }
        #expect(takenOver.reasonCode == .sessionTakenOver)
        #expect(takenOver.properties.userProperty(IMUserProperty.error) == nil)
        try await second.send(.pingreq)
        #expect(await second.next() == .pingresp)
        await server.stop()
    }
}
