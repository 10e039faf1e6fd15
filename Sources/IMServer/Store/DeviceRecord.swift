import IMProtocol

/// A device the server has seen log in for a user.
public struct DeviceRecord: Sendable, Equatable {
    /// The MQTT Client Identifier.
    public var deviceID: String
    public var platform: Platform
    /// When the device first registered, in ms since the epoch.
    public var registeredAt: Int64

    public init(deviceID: String, platform: Platform, registeredAt: Int64) {
        self.deviceID = deviceID
        self.platform = platform
        self.registeredAt = registeredAt
    }
}
