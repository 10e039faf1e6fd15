/// A login on another node, as its notice tells it: the presence row's sequence (the newer
/// login wins), the device and its platform.
struct ClusterLogin: Sendable, Equatable {
    var sequence: Int64
    var deviceID: String
    var platform: String
}
