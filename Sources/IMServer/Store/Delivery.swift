/// One device a stored message is queued for.
public struct Delivery: Sendable, Hashable {
    public var userID: String
    public var deviceID: String

    public init(userID: String, deviceID: String) {
        self.userID = userID
        self.deviceID = deviceID
    }
}
