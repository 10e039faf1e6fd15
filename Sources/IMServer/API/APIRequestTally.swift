import Synchronization

/// API requests answered, by endpoint and status, for `/metrics`. Safe from any loop.
///
/// A lock per request is fine here: API requests are an app server's calls, not the message
/// path. Paths that name no endpoint count as `other`, so a scanner cannot grow the table.
final class APIRequestTally: Sendable {
    struct Key: Hashable, Sendable {
        var path: String
        var status: Int
    }

    private let counts = Mutex<[Key: Int]>([:])

    func count(path: String, status: Int) {
        let key = Key(path: APIEndpoint(rawValue: path)?.rawValue ?? "other", status: status)
        counts.withLock { $0[key, default: 0] += 1 }
    }

    /// Every endpoint and status answered so far, with its count.
    var snapshot: [Key: Int] { counts.withLock { $0 } }
}
