import IMTransport
import IMStore
import IMProtocol
import MQTT

/// This node's part among the nodes sharing one PostgreSQL database: its connections' presence
/// there, the other nodes' notices carried out here, the heartbeat and what follows a
/// connection lost to the database. A part of `BrokerCore`; without other nodes, it does nothing.
final class ClusterLink {
    /// How long a same-device login on another node must last to take a session over.
    static let takeoverGrace: Duration = .seconds(1)

    private unowned let core: BrokerCore
    /// The other nodes on the same PostgreSQL database, when there can be any.
    let nodes: PostgresCluster?
    /// Logins on other nodes noticed while a local login of the same user was still writing
    /// its presence row, by that connection's id (see `applyLaterLogins`); empty almost always.
    private var laterLogins: [UInt64: [ClusterLogin]] = [:]
    /// The direct links to the other nodes, which carry the notices of messages and logins (from `startLinks`).
    private(set) var links: NodeLinks?
    /// Presence rows of closed connections waiting to be removed (their sequence numbers).
    private var departed = PendingBatch<Int64>()
    /// How long other nodes' deliver notices took from their sending (by PostgreSQL's clock,
    /// in the storing transaction, so the commit is included) to this loop (by this host's):
    /// across hosts, their clocks' difference is in it too. For `/metrics`.
    private(set) var noticeDelays = MetricsHistogram.seconds()

    init(core: BrokerCore, nodes: PostgresCluster?) {
        self.core = core
        self.nodes = nodes
    }

    /// Removes a connection's presence row once it is closed.
    func leave(_ broker: BrokerConnection) {
        laterLogins[broker.id] = nil
        guard nodes != nil, let sequence = broker.takePresence() else { return }
        departed.add(sequence)
        removeDeparted()
    }

    /// Removes the departed connections' rows in one statement, those that gathered while the
    /// one before ran in the next. A mass disconnect was a transaction a connection: with them,
    /// 30,000 sessions connecting and leaving cost PostgreSQL 8.6-8.7 s of CPU, now 3.4-3.5,
    /// and the nodes 8.9-9.5 s, now 6.0-6.1 (issue 42, BENCHMARKS.md).
    private func removeDeparted() {
        guard let nodes, let sequences = departed.next() else { return }
        core.perform({ try await nodes.left(sequences: sequences) }) { [weak self] _, _ in
            self?.departed.finish()
            self?.removeDeparted()
        }
    }

    /// Carries out another node's notice on this node's connections.
    func apply(_ notice: ClusterNotice) {
        switch notice.event {
        case let .deliver(appKey, deliveries, message, at):
            if at > 0 { noticeDelays.observe(Double(max(ServerClock.systemWallMicroseconds() - at, 0)) / 1e6) }
            // Without a chain only a read can tell what is missing: on one node the loop's
            // order says it, across nodes nothing does.
            let chained = deliveries.allSatisfy { $0.previous != nil }
            core.deliveries.notify(appKey: appKey, deliveries, message: chained ? message : nil)
        case let .login(sequence, appKey, userID, deviceID, platform):
            // The device is back, on another node: a will this node holds for it is not sent
            // (MQTT-3.1.3-9), as for a reconnection here.
            core.wills.cancel(DeviceKey(appKey: appKey, userID: userID, deviceID: deviceID))
            let later = ClusterLogin(sequence: sequence, deviceID: deviceID, platform: platform)
            for broker in core.online.connections(of: UserKey(appKey: appKey, userID: userID)) {
                if broker.stage == .authenticating && broker.presenceSequence == nil {
                    // Its own row is being written: which of the two logins is the newer is
                    // known once it is (`applyLaterLogins`). Skipped, a newer login elsewhere
                    // left both devices online.
                    laterLogins[broker.id, default: []].append(later)
                    continue
                }
                give(broker, way: later)
            }
        case let .disconnect(appKey, userIDs, reasonCode, errorName):
            core.disconnect(appKey: appKey, userIDs: userIDs, ReasonCode(rawValue: reasonCode), IMErrorName(rawValue: errorName))
        }
    }

    /// Disconnects `broker` when `later`, a login on another node, is newer and displaces it:
    /// the same device moves there (after `takeoverGrace`), another of its platform is let go.
    private func give(_ broker: BrokerConnection, way later: ClusterLogin) {
        guard broker.stage == .online, let login = broker.login,
              let mine = broker.presenceSequence, mine < later.sequence else { return }
        if login.deviceID == later.deviceID {
            confirmTakeover(of: broker, by: later.sequence)
        } else if login.platform.rawValue == later.platform {
            core.disconnect(broker, .sessionTakenOver, .otherDeviceLogin)
        }
    }

    /// The logins elsewhere noticed while `broker`'s own row was being written, now that it is
    /// online with its sequence: the newer ones displace it.
    func applyLaterLogins(_ broker: BrokerConnection) {
        guard let later = laterLogins.removeValue(forKey: broker.id) else { return }
        for login in later { give(broker, way: login) }
    }

    /// The same device logged in on another node: the session moves there, unless that login
    /// ends within `takeoverGrace`. An engine racing its server list can log in on two nodes
    /// at once and keep the first to answer, closing the other at once; taking the kept one
    /// over for the closed one would end the session (0x8E is not retried).
    private func confirmTakeover(of broker: BrokerConnection, by sequence: Int64) {
        guard let nodes, let device = broker.login?.device else { return }
        core.loop.scheduleTimer(after: Self.takeoverGrace) { [weak self, weak broker] in
            self?.core.perform({ try await nodes.isPresent(sequence: sequence) }) { core, result in
                guard case .success(true) = result else { return }
                // The device is online on the other node: a will with a delay is not sent; one
                // without goes at once, as for a takeover on one node.
                guard let broker, broker.stage == .online, let mine = broker.presenceSequence, mine < sequence else {
                    // The connection here ended during the grace, and its will waits.
                    return core.wills.cancel(device)
                }
                if let will = broker.will, will.delay > .zero { broker.dropWill() }
                core.disconnect(broker, .sessionTakenOver)
            }
        }
    }

    /// Takes the other nodes' links on `listener` and dials theirs, proving `secret`; the
    /// message lane sends its notices over them from then on.
    func startLinks(_ listener: Listener, secret: [UInt8], warning: @escaping @Sendable (String) -> Void) {
        guard let nodes else { return listener.close() }
        let handlers = NodeLinks.Handlers(
            notice: { [unowned self] notice in apply(notice) },
            catchUp: { [unowned self] in catchUp() },
            notify: { [unowned self] notices in
                core.perform({ try await nodes.notify(notices) }) { _, result in
                    if case .failure(let error) = result { warning("cannot notify \(notices.count) notices: \(error)") }
                }
            },
            warning: warning)
        let links = NodeLinks(node: nodes.nodeName, secret: secret, listener: listener, loop: core.loop, handlers: handlers)
        self.links = links
        (core.lane as? PostgresMessageLane)?.links = links
    }

    /// Closes the links (at the end of a stop).
    func stopLinks() {
        links?.stop()
    }

    /// After the listener or a link (re)connected, notices may have been missed: every online
    /// device looks at its queue again, and the logins made elsewhere meanwhile are carried out
    /// as their notices would have been (the newer login wins, as always).
    func catchUp() {
        for broker in core.online.all { core.deliveries.pump(broker) }
        guard let nodes else { return }
        let users = core.online.users.map { (appKey: $0.appKey, userID: $0.userID) }
        let now = core.clock.wallMilliseconds()
        core.perform({ try await nodes.onlineElsewhere(users, now: now) }) { core, result in
            guard case .success(let devices) = result else { return }
            for (user, remote) in zip(users, devices) {
                for device in remote {
                    core.cluster.apply(ClusterNotice(node: "", event: .login(
                        sequence: device.sequence, appKey: user.appKey, userID: user.userID,
                        deviceID: device.deviceID, platform: device.platform)))
                }
            }
        }
    }

    /// Keeps this node's heartbeat fresh (every two seconds, from the maintenance tick), and
    /// the links with the live nodes it reads.
    func heartbeat() {
        guard let nodes else { return }
        let now = core.clock.wallMilliseconds(), started = ContinuousClock.now
        core.perform({ try await nodes.heartbeat(now: now) }) { core, result in
            guard case .success(let beat?) = result else { return }
            core.cluster.links?.update(peers: beat.peers, readAt: started)
            if beat.rowLost { core.cluster.rejoin() }
        }
    }

    /// Writes the presence of every online connection again, with its first sequence number,
    /// after the other nodes removed this node's rows (it was out of PostgreSQL's reach for
    /// longer than a heartbeat allows).
    private func rejoin() {
        guard let nodes else { return }
        let logins = core.online.all.compactMap { broker -> (DeviceRegistration, UInt64, Int64)? in
            guard broker.stage == .online, let login = broker.login, let sequence = broker.presenceSequence else { return nil }
            let registration = DeviceRegistration(appKey: login.appKey, userID: login.userID, deviceID: login.deviceID, platform: login.platform)
            return (registration, broker.id, sequence)
        }
        let now = core.clock.wallMilliseconds()
        core.perform({ try await nodes.rejoined(logins, now: now) }) { _, _ in }
    }
}
