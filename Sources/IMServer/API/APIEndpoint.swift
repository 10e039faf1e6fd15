/// The paths of the server API (contract section 6); every one takes POST only.
enum APIEndpoint: String, CaseIterable, Sendable {
    case getToken = "/user/getToken.json"
    case expireTokens = "/user/token/expire.json"
    case block = "/user/block.json"
    case unblock = "/user/unblock.json"
    case deactivate = "/user/deactivate.json"
    case reactivate = "/user/reactivate.json"
    case kick = "/user/kick.json"
    case checkOnline = "/user/checkOnline.json"
    case publishPrivate = "/message/private/publish.json"

    /// The one method the API accepts.
    static let method = "POST"
}
