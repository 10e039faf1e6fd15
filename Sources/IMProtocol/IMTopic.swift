/// The topics of section 5: where a client sends, and where it receives.
public enum IMTopic: Hashable, Sendable {
    /// `im/send/<to>`: a client publishes here to send to user `to`.
    case send(to: String)
    /// `im/inbox/<from>`: the server delivers here a message from user `from`.
    case inbox(from: String)

    /// The one filter a client may subscribe to.
    public static let inboxFilter = "im/inbox/#"
    static let sendPrefix = "im/send/"
    static let inboxPrefix = "im/inbox/"

    /// Parses a topic name; nil for any other topic or an invalid user id.
    public init?(_ name: String) {
        if let user = Self.user(in: name, after: Self.sendPrefix) {
            self = .send(to: user)
        } else if let user = Self.user(in: name, after: Self.inboxPrefix) {
            self = .inbox(from: user)
        } else {
            return nil
        }
    }

    private static func user(in name: String, after prefix: String) -> String? {
        // Bytes, not Characters: a combining mark after the '/' must not merge into the prefix.
        guard name.utf8.starts(with: prefix.utf8) else { return nil }
        let user = String(decoding: name.utf8.dropFirst(prefix.utf8.count), as: UTF8.self)
        return IMIdentifier.isValidUserID(user) ? user : nil
    }

    /// The topic name; the user id is expected to be valid (see `IMIdentifier`).
    public var name: String {
        switch self {
        case .send(let to): return Self.sendPrefix + to
        case .inbox(let from): return Self.inboxPrefix + from
        }
    }

    /// The other user of the topic: the recipient of `send`, the sender of `inbox`.
    public var userID: String {
        switch self {
        case .send(let to): return to
        case .inbox(let from): return from
        }
    }
}
