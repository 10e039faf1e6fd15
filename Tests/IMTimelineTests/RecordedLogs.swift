import IMEngine
import IMTimeline

/// Small connection logs with known spans: two devices of alice kicking each other's session,
/// alice-tablet losing its network, retrying and being suspended; bob banned and back.
///
/// Times are offsets in seconds from `base` (2023-11-14 22:13:20 UTC), over one minute.
enum RecordedLogs {
    static let base: Int64 = 1_700_000_000_000
    static let until = base + 60_000

    static func at(_ seconds: Double) -> Int64 { base + Int64(seconds * 1000) }

    static func entry(_ seconds: Double, _ status: ConnectionStatus, _ code: ConnectErrorCode? = nil, _ detail: String = "") -> ConnectionLogEntry {
        ConnectionLogEntry(at: at(seconds), status: status, code: code, detail: detail)
    }

    static let alicePhone = LaneSource(name: "alice-phone", userID: "alice", entries: [
        entry(0, .connecting, nil, "connect called"),
        entry(1, .connected, nil, "connected to 127.0.0.1:1883"),
        entry(10, .kickedOfflineByOtherClient, .kickedByOtherClient, "other-device-login"),
    ])

    static let aliceTablet = LaneSource(name: "alice-tablet", userID: "alice", entries: [
        entry(9, .connecting, nil, "connect called"),
        entry(9.99, .connected),
        entry(30, .networkUnavailable, nil, "network down (simulated)"),
        entry(35, .connecting, nil, "network up (simulated)"),
        entry(36, .connecting, nil, "attempt failed: connection refused"),
        entry(38, .connecting, nil, "attempt failed: connection refused"),
        entry(40, .connected),
        entry(50, .suspend, nil, "in the background longer than 120 s"),
        entry(55, .connecting, nil, "foreground"),
        entry(56, .connected),
    ])

    static let bobPhone = LaneSource(name: "bob-phone", userID: "bob", entries: [
        entry(0, .connecting),
        entry(1, .connecting, nil, "attempt failed: connection refused"),
        entry(2, .connected),
        entry(20, .disconnException, .userBlocked, "user-blocked"),
        entry(40, .connecting, nil, "connect called"),
        entry(41, .connected),
        entry(58, .signOut),
    ])

    static var timeline: Timeline { Timeline([alicePhone, aliceTablet, bobPhone], since: nil, until: until) }
}
