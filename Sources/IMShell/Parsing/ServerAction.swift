/// What `server` does to the embedded server.
public enum ServerAction: String, Sendable, Equatable, CaseIterable {
    /// Gracefully: DISCONNECT to every client, listeners closed, the store kept on disk.
    case stop
    /// Again, on the ports it had, so that clients reconnect to the addresses they know.
    case start
    /// As a crash: every connection reset without a DISCONNECT; the store kept.
    case kill
    /// The profile's app blocked, as `imserver app block` does: its logins refused (31008).
    case blockApp = "block-app"
    /// The block lifted.
    case unblockApp = "unblock-app"
    /// The plain MQTT listener moved to a new port, every client sent there (DISCONNECT 0x9C
    /// with the new address as Server Reference); sessions made later get the old address
    /// first in their server list.
    case move
}
