/// The rule that reads a stock broker's silent takeover as a kick.
///
/// mosquitto closes the connection of a client whose id another client logs in with, with no
/// DISCONNECT; two devices sharing an id would then take each other over on the backoff
/// schedule for ever. So: when the server closes the link (no DISCONNECT) within `window` of a
/// successful login `limit` times in a row, with no network change in between, the session
/// stops with kickedOfflineByOtherClient (6) / 31010 and says takeover is suspected and why.
/// A link that lives longer than `window`, a network change, or an attempt that fails to log in
/// starts the count over: a broker that stops also closes without DISCONNECT, but then nothing
/// answers for a while, whereas a taken-over device logs in again at once, every time.
public struct TakeoverSuspicion: Sendable, Equatable {
    /// How soon after CONNACK a close counts as "right after login" (ms).
    public static let window: Int64 = 5_000
    /// How many such closes in a row are taken for a takeover, unless the engine says otherwise.
    public static let defaultLimit = 3

    /// How many such closes in a row are taken for a takeover; 0: never.
    public let limit: Int
    /// Closes right after login so far, in a row.
    public private(set) var count = 0

    public init(limit: Int = TakeoverSuspicion.defaultLimit) {
        self.limit = limit
    }

    /// The server closed a link without DISCONNECT `lived` ms after CONNACK: the termination
    /// to stop with when this makes `limit` in a row, else nil.
    public mutating func serverClosed(livedMilliseconds lived: Int64) -> SessionTermination? {
        guard lived >= 0 && lived < Self.window else {
            count = 0
            return nil
        }
        count += 1
        guard limit > 0, count >= limit else { return nil }
        count = 0
        return SessionTermination(
            .kickedOfflineByOtherClient, .kickedByOtherClient,
            detail: "takeover suspected: the server closed the connection without DISCONNECT within "
                + "\(Self.window / 1000) s of a successful login \(limit) times in a row, with the network unchanged "
                + "(another device logging in with the same client id?)")
    }

    /// The network changed, or the session starts over: closes from now on count afresh.
    public mutating func reset() { count = 0 }

    /// An attempt did not log in (refused, unreachable, no CONNACK): the server went away, so
    /// the closes before it were not a takeover.
    public mutating func attemptFailed() { count = 0 }
}
