import IMProtocol

/// Which server a profile's accounts log in to.
public enum ServerEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// The IM server imsh runs in its own process, with this profile's app key and secret.
    case embedded
    /// One or more MQTT servers, tried in order.
    case addresses([ServerAddress])

    /// The profile's `server` value as written: `"embedded"`, or the addresses.
    public static let embeddedKeyword = "embedded"

    public var description: String {
        switch self {
        case .embedded: return Self.embeddedKeyword
        case .addresses(let addresses): return addresses.map(\.url).joined(separator: ", ")
        }
    }
}
