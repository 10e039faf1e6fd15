import IMProtocol

extension BrokerConnection {
    /// Who logged in on this connection.
    struct Login {
        var appKey: String
        var userID: String
        var deviceID: String
        var platform: Platform
        var device: DeviceKey { DeviceKey(appKey: appKey, userID: userID, deviceID: deviceID) }
        var user: UserKey { UserKey(appKey: appKey, userID: userID) }
    }
}
