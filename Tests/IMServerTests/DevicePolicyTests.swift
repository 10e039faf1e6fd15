import IMServer
import Testing

struct DevicePolicyTests {
    let phoneA = DevicePolicy.OnlineDevice(connectionID: 1, clientID: "phone-a", platform: "mobile")
    let laptop = DevicePolicy.OnlineDevice(connectionID: 2, clientID: "laptop", platform: "pc")

    func login(_ client: String, reconnect: Bool = false, kickEnable: Bool = false, platform: String = "mobile") -> DevicePolicy.Login {
        .init(clientID: client, platform: platform, isReconnection: reconnect, kickEnable: kickEnable)
    }

    @Test func freshLoginKicksTheOtherDeviceOfTheSameClassOnly() {
        let decision = DevicePolicy(clientControlsKickPolicy: true).decide(login("phone-b"), online: [phoneA, laptop])
        #expect(decision == .accept(evict: [(1, .otherDeviceLogin)]))
    }

    @Test func freshLoginWithKickEnableStillKicks() {
        let decision = DevicePolicy(clientControlsKickPolicy: true).decide(login("phone-b", kickEnable: true), online: [phoneA])
        #expect(decision == .accept(evict: [(1, .otherDeviceLogin)]))
    }

    @Test(arguments: [(false, false), (false, true), (true, false)])
    func reconnectionKicksUnlessTheClientMayGiveWayAndAsks(appAllows: Bool, kickEnable: Bool) {
        let decision = DevicePolicy(clientControlsKickPolicy: appAllows)
            .decide(login("phone-b", reconnect: true, kickEnable: kickEnable), online: [phoneA])
        #expect(decision == .accept(evict: [(1, .otherDeviceLogin)]))
    }

    @Test func reconnectionWithKickEnableWhereTheAppAllowsIsRefused() {
        let decision = DevicePolicy(clientControlsKickPolicy: true)
            .decide(login("phone-b", reconnect: true, kickEnable: true), online: [phoneA, laptop])
        #expect(decision == .refuseOtherDeviceOnline)
    }

    @Test func reconnectionWithKickEnableAndNoRivalIsAccepted() {
        let decision = DevicePolicy(clientControlsKickPolicy: true)
            .decide(login("phone-b", reconnect: true, kickEnable: true), online: [laptop])
        #expect(decision == .accept(evict: []))
    }

    @Test func sameClientIdentifierIsATakeoverEvenWhenGivingWay() {
        let stale = DevicePolicy.OnlineDevice(connectionID: 7, clientID: "phone-b", platform: "mobile")
        let decision = DevicePolicy(clientControlsKickPolicy: true)
            .decide(login("phone-b", reconnect: true, kickEnable: false), online: [stale, phoneA])
        #expect(decision == .accept(evict: [(7, .sessionTakenOver), (1, .otherDeviceLogin)]))
    }
}
