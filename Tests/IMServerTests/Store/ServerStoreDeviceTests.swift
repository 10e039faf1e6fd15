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
        #expect(Set(third.deliveries.map(\.unchained)) == [Delivery(userID: "bob", deviceID: "phone"), Delivery(userID: "bob", deviceID: "tablet")])
        // The chain, where the store keeps one: the phone took the placeholder's two, the tablet had none.
        if third.deliveries.contains(where: { $0.previous != nil }) {
            #expect(Set(third.deliveries) == [Delivery(userID: "bob", deviceID: "phone", previous: second.messageID),
                                              Delivery(userID: "bob", deviceID: "tablet", previous: 0)])
        }
        await store.close()
    }

    /// One batch decides each login as if those before it were written: the first device takes
    /// the placeholder's queue, a device seen twice is new once and keeps its last platform
    /// (PostgreSQL registers a batch with one read and one statement per kind of write).
    @Test func aBatchRegistersEachLoginAsIfTheOnesBeforeItWereWritten() async throws {
        let directory = TemporaryDirectory()
        let store = try await directory.open()
        let queued = try await store.storeMessage(appKey: "app", from: "alice", to: ["bob"], cid: "c1", text: "one", sentAt: 100)
        #expect(try await store.registerDevice(appKey: "app", userID: "dan", deviceID: "pc", platform: .pc, now: 150))
        let new = try await store.registerDevices([
            DeviceRegistration(appKey: "app", userID: "bob", deviceID: "phone", platform: .mobile),
            DeviceRegistration(appKey: "app", userID: "bob", deviceID: "tablet", platform: .pc),
            DeviceRegistration(appKey: "app", userID: "bob", deviceID: "phone", platform: .web),
            DeviceRegistration(appKey: "app", userID: "carol", deviceID: "phone", platform: .mobile),
            DeviceRegistration(appKey: "app", userID: "carol", deviceID: "phone", platform: .pc),
            DeviceRegistration(appKey: "app", userID: "dan", deviceID: "pc", platform: .mobile),
        ], now: 200)
        #expect(new == [true, true, false, true, false, false])
        #expect(try await store.devices(appKey: "app", userID: "bob").map { "\($0.deviceID) \($0.platform)" }.sorted() == ["phone web", "tablet pc"])
        #expect(try await store.devices(appKey: "app", userID: "carol").map { "\($0.deviceID) \($0.platform)" } == ["phone pc"])
        #expect(try await store.devices(appKey: "app", userID: "dan").map { "\($0.deviceID) \($0.platform)" } == ["pc mobile"])
        #expect(try await store.pending(appKey: "app", userID: "bob", deviceID: "phone", limit: 10).map(\.uid) == [queued.uid])
        #expect(try await store.pending(appKey: "app", userID: "bob", deviceID: "tablet", limit: 10).isEmpty)
        await store.close()
    }
}
