/// One user of one app: the unit of blocks, kicks and device policy.
struct UserKey: Hashable, Sendable {
    var appKey: String
    var userID: String
}
