import IMEngine

/// One device of a chaos run's user: its session, which of the user's devices it is, and
/// whether its links go through the clean proxies.
struct ChaosDevice: Sendable {
    enum Role: String, Sendable, CaseIterable {
        case mobile1 = "m1"
        case mobile2 = "m2"
        case pc

        var isMobile: Bool { self != .pc }
    }

    var user: Int
    var userID: String
    var role: Role
    var session: Session
    /// Whether its links go through the clean proxies (no random link faults).
    var clean: Bool

    /// `u12/m1`.
    var name: String { "\(userID)/\(role.rawValue)" }
}
