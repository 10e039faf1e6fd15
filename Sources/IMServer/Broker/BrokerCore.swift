import IMProtocol
import IMTransport
import MQTT

/// The MQTT side: every connection and who is online on which device, the server-side
/// disconnects and the shutdown, and the parts that serve the connections, each owning its
/// state: `logins`, `publishing`, `deliveries`, `wills`, `deadlines`, `cluster` (and `apps`).
///
/// Confined to one event loop: every connection it serves runs on that loop, so connection
/// callbacks use it and its parts directly with no locks or hops. A message's store calls go
/// through `lane` (with SQLite, on this loop, a transaction per turn); other work on the store
/// runs in tasks and comes back with `perform`. Each continuation first checks that its
/// connection is still the one it started for.
final class BrokerCore {
    let loop: EventLoop
    let store: any ServerStore
    /// The store calls every message makes (store, fetch, acknowledge), answered on the loop.
    let lane: any MessageLane
    /// The other nodes on the same PostgreSQL database, for `cluster` to keep.
    private let clusterNodes: PostgresCluster?
    /// The limits; a reload (`reconfigure`) changes those that apply as connections come.
    var limits: ServerLimits
    let clock: ServerClock
    /// The apps, as configured and with the store's overrides; a reload and the maintenance
    /// tick change them (through `Apps`).
    var apps: Apps
    /// Every open MQTT connection, by connection id.
    private(set) var connections: [UInt64: BrokerConnection] = [:]
    /// Logged-in connections of each user, in login order (admitted by `logins`, whose CONNACK
    /// may still wait for the store).
    private(set) var online = OnlineUsers()
    private var nextConnectionID: UInt64 = 0
    private(set) var shuttingDown = false
    /// The clients sent away and not yet gone, by connection id: each waits for its PUBLISHes
    /// under way to be stored and acknowledged (see `sendAway`).
    private(set) var departures: [UInt64: Departure] = [:]
    /// What `/metrics` reports of the broker; each part counts its own, on this loop.
    var counters = BrokerCounters()

    // The parts, each owning its state. Made at first use (each keeps its core, unowned): they
    // live and die with the core, and work under way holds them weakly, so a part that finds
    // itself alive finds its core alive.
    /// CONNECT to CONNACK.
    private(set) lazy var logins = Logins(core: self)
    /// PUBLISH: stored in order, then acknowledged.
    private(set) lazy var publishing = Publishing(core: self)
    /// What is stored, to the connections of its devices.
    private(set) lazy var deliveries = Deliveries(core: self)
    /// Connect timeouts and keep-alives.
    private(set) lazy var deadlines = Deadlines(core: self)
    /// The wills of connections that ended, until they are sent.
    private(set) lazy var wills = Wills(core: self)
    /// This node among the others on the same database (with SQLite, alone).
    private(set) lazy var cluster = ClusterLink(core: self, nodes: clusterNodes)

    init(loop: EventLoop, store: any ServerStore, lane: any MessageLane, cluster: PostgresCluster? = nil,
         configuration: ServerConfiguration, apps: [AppSettings], clock: ServerClock) {
        self.loop = loop
        self.store = store
        self.lane = lane
        self.clusterNodes = cluster
        self.limits = configuration.limits
        self.clock = clock
        self.apps = Apps(configured: configuration.apps, effective: apps)
    }

    /// Takes a freshly accepted connection: it must send CONNECT within the connect timeout.
    func accept(_ connection: Connection, transport: MQTTTransport = .tcp) {
        nextConnectionID += 1
        let broker = BrokerConnection(id: nextConnectionID, connection: connection, core: self, transport: transport,
                                      acceptedAt: clock.monotonic())
        connections[broker.id] = broker
        connection.start(broker)
        deadlines.watchConnectTimeout(broker)
    }

    /// Forgets a connection that closed.
    func connectionClosed(_ broker: BrokerConnection) {
        loop.trimHeapWhenIdle()
        connections[broker.id] = nil
        departures[broker.id] = nil
        removeFromOnline(broker)
        if let login = broker.login { lane.connectionEnded(login.device) }
        wills.connectionEnded(broker)
        cluster.leave(broker)
    }

    /// An admitted login joins its user's connections.
    func addToOnline(_ broker: BrokerConnection) {
        guard let login = broker.login else { return }
        online.append(broker, for: login.user)
    }

    /// A connection leaves its user's connections (it is closing, or its login failed).
    func removeFromOnline(_ broker: BrokerConnection) {
        guard let login = broker.login else { return }
        online.remove(broker, for: login.user)
    }

    /// Sends DISCONNECT with `reason` (and `im-error`), then closes: the server-side disconnects of section 2.
    func disconnect(
        _ broker: BrokerConnection, _ reason: ReasonCode, _ name: IMErrorName? = nil, reason text: String? = nil,
        serverReference: String? = nil
    ) {
        guard broker.stage != .closed else { return }
        guard broker.stage == .online else {
            // No CONNACK yet, so no DISCONNECT may come first: just drop the attempt.
            removeFromOnline(broker)
            return broker.close(.abortive)
        }
        var properties: Properties = []
        if let name { properties.appendUserProperty(IMUserProperty.error, name.rawValue) }
        if let text { properties.reasonString = text }
        if let serverReference { properties.serverReference = serverReference }
        broker.send(.disconnect(Disconnect(reasonCode: reason, properties: properties)))
        counters.disconnects[BrokerCounters.Reason(reason, name), default: 0] += 1
        removeFromOnline(broker)
        broker.close(.graceful)
    }

    /// Disconnects every device of these users with `reason` and `name`; their logins whose
    /// standing is being read are read again (`LoginBatches.changedDuringRead`).
    func disconnect(appKey: String, userIDs: [String], _ reason: ReasonCode, _ name: IMErrorName) {
        logins.usersChanged(appKey: appKey, userIDs: userIDs)
        for userID in userIDs {
            for broker in online.connections(of: UserKey(appKey: appKey, userID: userID)) {
                // A user shut out by an operator does not speak once more through a will.
                broker.dropWill()
                disconnect(broker, reason, name)
            }
        }
    }

    /// Starts a graceful shutdown: clients not logged in are closed, and every online one is
    /// sent away (`sendAway`) with DISCONNECT 0x8B, or 0x9C naming `references` (other live
    /// nodes) in turn. The server's drain timeout bounds the wait.
    func beginShutdown(references: [String] = []) {
        shuttingDown = true
        for broker in connections.values where broker.stage != .online { broker.close(.graceful) }
        sendAway(to: references)
    }

    /// Sends every online client away: it is no longer read, and once the PUBLISHes it sent
    /// are stored and acknowledged it gets DISCONNECT 0x9C naming `references` in turn, or 0x8B
    /// when there are none. Acknowledging first means it sends none of them again where it
    /// goes. Returns the ids of the connections sent away.
    @discardableResult
    func sendAway(to references: [String]) -> [UInt64] {
        var sent: [UInt64] = []
        for broker in connections.values where broker.stage == .online {
            broker.connection.pauseReading()
            departures[broker.id] = references.isEmpty ? .shuttingDown : .moveTo(references[sent.count % references.count])
            sent.append(broker.id)
            leaveIfSettled(broker)
        }
        return sent
    }

    /// Sends a client told to go off once nothing it sent waits for the store.
    func leaveIfSettled(_ broker: BrokerConnection) {
        guard let departure = departures[broker.id], !broker.publishes.isBusy, broker.publishes.waiting.isEmpty else { return }
        departures[broker.id] = nil
        switch departure {
        case .shuttingDown: disconnect(broker, .serverShuttingDown)
        case .moveTo(let reference): disconnect(broker, .useAnotherServer, serverReference: reference)
        }
    }

    /// Starts a stop that looks like a crash to clients: every connection is reset without a
    /// DISCONNECT, and no will is sent.
    func beginCrash() {
        shuttingDown = true
        for broker in connections.values { broker.close(.abortive) }
    }

    /// Runs `work` off the loop, then `then` with its result back on the loop, unless the
    /// core has gone meanwhile (a stopped server is not kept alive by store work under way).
    func perform<T: Sendable>(
        _ work: @escaping @Sendable () async throws -> T,
        then: @escaping (BrokerCore, Result<T, any Error>) -> Void
    ) {
        loop.run(detached: work) { [weak self] result in
            guard let self else { return }
            then(self, result)
        }
    }
}

/// How a client is sent away (`BrokerCore.sendAway`).
enum Departure {
    /// DISCONNECT 0x8B: no other node to go to.
    case shuttingDown
    /// DISCONNECT 0x9C with this node's address as Server Reference.
    case moveTo(String)
}
