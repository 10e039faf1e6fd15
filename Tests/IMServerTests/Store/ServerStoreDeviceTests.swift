import IMProtocol
import IMServer
import Testing
import TestSupport

struct ServerStoreDeviceTests {
    @Test func registrationIsNewOnlyOnceAndKeepsThePlatformCurrent() async throws {
        let directory = TemporaryDirectory()
        let store = try await directory.open()
        #expect(try await store.registerDevice(appKey: "app", userID: "bob", deviceID: "phone", platform: .mobile, now: 10))
        #expect(try await !store.registerDevice(appKey: "app", userID: "bob", deviceID: "phone", platform: .pc, now: 20))
        #expect(try await store.registerDevice(appKey: "app", userID: "bob", deviceID: "laptop", platform: .pc, now: 30))
        // The same device id for another user or app is another device.
        #expect(try await store.registerDevice(appKey: "app", userID: "carol", deviceID: "phone", platform: .mobile, now: 40))
        #expect(try await store.registerDevice(appKey: "other", userID: "bob", deviceID: "phone", platform: .mobile, now: 50))
        #expect(try await store.devices(appKey: "app", userID: "bob") == [
            DeviceRecord(deviceID: "phone", platform: .pc, registeredAt: 10),
            DeviceRecord(deviceID: "laptop", platform: .pc, registeredAt: 30),
        ])
        await store.close()
    }

    @Test func invalidDeviceIDIsRefused() async throws {
        let directory = TemporaryDirectory()
        let store = try await directory.open()
        await #expect(throws: ServerStoreError.invalidDeviceID("a+b")) {
            try await store.registerDevice(appKey: "app", userID: "bob", deviceID: "a+b", platform: .web, now: 1)
        }
        #expect(try await store.devices(appKey: "app", userID: "bob").isEmpty)
        await store.close()
    }

    @Test func firstDeviceClaimsMessagesQueuedBeforeItAndLaterDevicesDoNot() async throws {
        let directory = TemporaryDirectory()
        let store = try await directory.open()
        let first = try await store.storeMessage(appKey: "app", from: "alice", to: ["bob"], cid: "c1", text: "one", sentAt: 100)
        let second = try await store.storeMessage(appKey: "app", from: "alice", to: ["bob"], cid: "c2", text: "two", sentAt: 200)
        #expect(first.deliveries.isEmpty && second.deliveries.isEmpty)
        #expect(try await store.devices(appKey: "app", userID: "bob").isEmpty)

        #expect(try await store.registerDevice(appKey: "app", userID: "bob", deviceID: "phone", platform: .mobile, now: 300))
        #expect(try await store.devices(appKey: "app", userID: "bob") == [DeviceRecord(deviceID: "phone", platform: .mobile, registeredAt: 300)])
        let claimed = try await store.pending(appKey: "app", userID: "bob", deviceID: "phone", limit: 10)
        #expect(claimed.map(\.uid) == [first.uid, second.uid])

        #expect(try await store.registerDevice(appKey: "app", userID: "bob", deviceID: "tablet", platform: .pc, now: 400))
        #expect(try await store.pending(appKey: "app", userID: "bob", deviceID: "tablet", limit: 10).isEmpty)
        // Once the user has devices, new messages go to every one of them.
        let third = try await store.storeMessage(appKey: "app", from: "alice", to: ["bob"], cid: "c3", text: "three", sentAt: 500)
        #expect(Set(third.deliveries) == [Delivery(userID: "bob", deviceID: "phone"), Delivery(userID: "bob", deviceID: "tablet")])
        await store.close()
    }
}
