/// What one chaos run does: how long, from which seed, with how many nodes, users and messages,
/// and how it restarts PostgreSQL.
struct ChaosSettings: Sendable {
    /// The PostgreSQL URL the nodes share (each through a proxy of its own).
    var store: String
    /// A shell command that restarts PostgreSQL, given `fast` or `immediate` after it; nil: no restarts.
    var storeRestart: String?
    var nodes = 3
    var users = 100
    /// Messages a second, all senders together.
    var rate = 40.0
    var duration: Duration = .seconds(120)
    var seed: UInt64
    /// The bound on the settling after the faults: every device back and every message in.
    var settleLimit: Duration = .seconds(120)

    /// Time between two node faults (a kill, a freeze, a graceful restart), one node at a time.
    var nodeFaultEvery: Duration = .seconds(20)
    /// Time between two faults of PostgreSQL or a node's link to it.
    var storeFaultEvery: Duration = .seconds(15)
    /// Time between two API calls on a user (block, deactivate, expire, kick).
    var apiCallEvery: Duration = .seconds(2)
    /// Time between two users whose mobile devices log in at once on two nodes.
    var crossLoginEvery: Duration = .seconds(2)
    /// Time between two random faults of the faulty client proxies, each proxy.
    var clientFaultEvery: Duration = .seconds(1)

    /// The longest two mobile devices of a clean user may be online together (client view).
    static let overlapBound: Duration = .seconds(1)
    /// How long a client of a frozen or killed node takes to count its connection dead:
    /// 1.5 times its Keep Alive (`ChaosUsers.heartbeat`).
    static let heartbeatLimit: Duration = .milliseconds(1_500 * ChaosUsers.heartbeat)
    /// How soon after a block or deactivation answered every device of a clean user is offline.
    static let holdBound: Duration = .seconds(1)
}
