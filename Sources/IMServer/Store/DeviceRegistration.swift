import IMProtocol

/// One device login, for `ServerStore.registerDevices`.
public struct DeviceRegistration: Sendable, Equatable {
    public var appKey: String
    public var userID: String
    public var deviceID: String
    public var platform: Platform

    public init(appKey: String, userID: String, deviceID: String, platform: Platform) {
        self.appKey = appKey
        self.userID = userID
        self.deviceID = deviceID
        self.platform = platform
    }
}
