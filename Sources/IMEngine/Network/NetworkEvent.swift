/// A change in the device's network, as the reconnection policy sees it.
public enum NetworkEvent: String, Sendable, Equatable {
    /// The last usable network went away.
    case down
    /// A usable network appeared where there was none.
    case up
    /// The usable networks changed (another interface or address) while some stayed up.
    case changed
}
