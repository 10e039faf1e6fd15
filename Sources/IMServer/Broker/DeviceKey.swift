/// One device of one user: the unit of the message queue.
struct DeviceKey: Hashable, Sendable {
    var appKey: String
    var userID: String
    var deviceID: String
}
