import IMHTTP
import IMTransport

/// Direct TCP links between the nodes of one PostgreSQL database: each node sends the others
/// the notices of the messages it stores and the logins it records over them, in place of
/// PostgreSQL's NOTIFY.
///
/// Why: a notifying transaction holds a database-wide lock from before its commit until after
/// it, so notifying commits run one at a time, and every node's listening backend is woken for
/// every notice; at 1,000 messages/s over three nodes that was a fifth of a message's CPU
/// (issue 42, BENCHMARKS.md). The API's disconnects, which are few, still go by NOTIFY.
///
/// Each node listens on its link address (`--node-listen`), written in its `node` row, and dials
/// every other live node the heartbeat reads there (`update`); the node it dialed sends it
/// notices (`publish`) after proving, both ways, that it knows the database's secret
/// (`NodeLinkHandshake`). A node's stores and logins leave NOTIFY out only when every live node
/// it read, within `viewLifetime`, has its link up to it (`carriesAll`); when one is not by
/// the commit, the notices go through NOTIFY as well (`Handlers.notify`). A node older than the
/// links writes no address, so it is never linked and the others notify it as before.
///
/// A notice lost with a link that breaks only delays. The node that dialed catches up (reads
/// the queue of every online device, and the logins online elsewhere) when the link is up
/// again, and `catchUpAfter` after it went down or failed to come up: by then the other node
/// has either seen it go, and notifies, or read this node in its view. Both sides send an
/// empty line every `pingInterval` and close a link silent for `silenceLimit`. Runs on the
/// broker's loop.
final class NodeLinks {
    static let pingInterval = Duration.seconds(1)
    static let silenceLimit = Duration.milliseconds(3_500)
    /// How old the list of live nodes may be for a store to leave NOTIFY out (heartbeats read
    /// it every two seconds).
    static let viewLifetime = Duration.seconds(5)
    /// Later than `viewLifetime` and than `silenceLimit` with a ping's lag.
    static let catchUpAfter = Duration.seconds(6)
    /// How long a starting node waits for its links before it takes clients.
    static let firstLinksWait = Duration.milliseconds(1_500)
    static let connectionOptions = ConnectionOptions(
        highWaterMark: 1 << 20, lowWaterMark: 1 << 18, outboundLimit: 16 << 20, closeTimeout: .seconds(1), framing: .raw)

    let node: String
    /// Where this node takes links, as written in its `node` row.
    let address: String
    let secret: [UInt8]
    let loop: EventLoop
    private let listener: Listener
    let handlers: Handlers
    /// The other live nodes (name, link address: empty for a node older than links) the last
    /// heartbeat read, and when that read began.
    private var view: (peers: [String: String], at: ContinuousClock.Instant)?
    /// The nodes linked to this one, which it sends its notices to, by name.
    var subscribers: [String: NodeLinkConnection] = [:]
    /// Links accepted here, still in their handshake.
    var accepted: [ObjectIdentifier: NodeLinkConnection] = [:]
    /// This node's link to each peer that takes links.
    var dials: [String: Dial] = [:]
    private(set) var noticesSent = 0
    var noticesReceived = 0
    /// Links, either way, that went down after their handshake.
    var linksLost = 0
    /// Reads of every online device's queue for notices that may have been missed.
    private(set) var catchUps = 0
    /// Set by `stop`: nothing is dialed or accepted after it.
    private(set) var stopped = false

    /// What the links ask of the broker.
    struct Handlers {
        /// Another node's notice, read from its link.
        var notice: (ClusterNotice) -> Void
        /// Notices may have been missed: read every online device's queue and the logins elsewhere.
        var catchUp: () -> Void
        /// Send these through NOTIFY too: a live node was not linked when they went.
        var notify: ([ClusterNotice]) -> Void
        /// A link was refused or a notice unreadable.
        var warning: (String) -> Void
    }

    /// This node's link to one peer.
    struct Dial {
        /// The address as the peer's row gives it, and as read.
        var text: String
        var address: HostPort
        var link: NodeLinkConnection?
        var attempt: ConnectAttempt?
        var nextAttempt = ContinuousClock.now
        var backoff = Duration.milliseconds(250)
        /// Whether the link was up once: notices may be lost when it goes down.
        var linkedBefore = false
        /// Since when the peer's notices may be missed and no read has caught up; nil while
        /// linked, once caught up, or when nothing can have been missed.
        var unlinkedSince: ContinuousClock.Instant?
    }

    /// Whether a peer may not have this node in its view yet (it read the live nodes before
    /// this one's row was written), so that it leaves NOTIFY out without a link to this node:
    /// then a first link catches up, which costs nothing when the links come before the first
    /// client (`firstLinksWait`). An older node is in every peer's view: until it is linked to a
    /// peer, that peer notifies it, and a first link needs no catching up (reading every
    /// device's queue at every node's start would cost each node as many reads as it has devices).
    var isYoung: Bool { ContinuousClock.now - started < Self.catchUpAfter + Self.viewLifetime }
    private let started = ContinuousClock.now
    /// When the last peer whose notices may be missing left the view, until a read catches up.
    private var forgottenAt: ContinuousClock.Instant?

    /// `listener` hands its connections to `accept`. Call on `loop`.
    init(node: String, secret: [UInt8], listener: Listener, loop: EventLoop, handlers: Handlers) {
        self.node = node
        self.secret = secret
        self.listener = listener
        self.loop = loop
        self.handlers = handlers
        address = listener.localAddress.description
    }

    /// Whether every live node is linked here, by a fresh enough view: then a store may leave
    /// its notices to `publish`.
    var carriesAll: Bool {
        guard let view, ContinuousClock.now - view.at < Self.viewLifetime else { return false }
        return view.peers.keys.allSatisfy { subscribers[$0] != nil }
    }

    /// Whether every peer that takes links is linked from here.
    var allDialedAreLinked: Bool { dials.values.allSatisfy { $0.link?.isLinked == true } }

    /// The links' figures for `/metrics`.
    struct Figures: Sendable {
        /// Nodes linked to this one (which it sends its notices), and nodes it is linked to.
        var linkedIn: Int
        var linkedOut: Int
        /// Notice lines sent (one per notice and linked node) and received.
        var noticesSent: Int
        var noticesReceived: Int
        /// Whether stores now leave NOTIFY out (`carriesAll`).
        var carriesAll: Bool
        /// Links lost and catch-ups so far (`linksLost`, `catchUps`).
        var linksLost: Int
        var catchUps: Int
    }

    var figures: Figures {
        Figures(linkedIn: subscribers.count, linkedOut: dials.values.filter { $0.link?.isLinked == true }.count,
                noticesSent: noticesSent, noticesReceived: noticesReceived, carriesAll: carriesAll,
                linksLost: linksLost, catchUps: catchUps)
    }

    /// Sends notices of what was just committed to every linked node, and through NOTIFY too
    /// when a live node is not linked.
    func publish(_ notices: [ClusterNotice]) {
        guard !notices.isEmpty else { return }
        let lines = notices.map { Array($0.encoded().utf8) }
        for subscriber in subscribers.values {
            for line in lines { subscriber.send(line: line) }
        }
        noticesSent += notices.count * subscribers.count
        if !carriesAll { handlers.notify(notices) }
    }

    /// The live nodes as a heartbeat read them (`peers`: name and link address) when it began.
    func update(peers: [String: String], readAt: ContinuousClock.Instant) {
        guard !stopped else { return }
        view = (peers, readAt)
        for (name, dial) in dials where peers[name] != dial.text {
            // Gone from the view or at another address (started again): what it sent on a link
            // that went down may be missing, as for a link lost (`tick`).
            if dial.linkedBefore || dial.unlinkedSince != nil { forgottenAt = .now }
            dial.attempt?.cancel()
            dial.link?.connection.close(.abortive)
            dials[name] = nil
        }
        for (name, text) in peers where dials[name] == nil && !text.isEmpty {
            guard let address = try? HostPort(parsing: text, defaultPort: nil) else {
                handlers.warning("node \(name) gives an unreadable link address '\(text)'; its notices come by NOTIFY")
                continue
            }
            dials[name] = Dial(text: text, address: address, unlinkedSince: isYoung ? .now : nil)
        }
        tick()
    }

    /// Keeps the links alive (every second, from the maintenance tick): pings, closes silent
    /// links, dials peers not linked, and catches up where notices may have been missed.
    func tick() {
        guard !stopped else { return }
        let now = ContinuousClock.now
        for link in Array(subscribers.values) + Array(accepted.values) + dials.values.compactMap(\.link) {
            if now - link.lastReceived > Self.silenceLimit || (!link.isLinked && now - link.opened > Self.silenceLimit) {
                link.connection.close(.abortive)
            } else if now - link.lastSent >= Self.pingInterval - .milliseconds(100) {
                link.send(line: [])
            }
        }
        if let since = forgottenAt, now - since >= Self.catchUpAfter {
            forgottenAt = nil
            catchUp()
        }
        for (name, dial) in dials {
            if let since = dial.unlinkedSince, now - since >= Self.catchUpAfter {
                dials[name]?.unlinkedSince = nil
                catchUp()
            }
            if dial.link == nil, dial.attempt == nil, now >= dial.nextAttempt { connect(to: name, dial.address) }
        }
    }

    /// Asks the broker to read every online device's queue again, counted for `/metrics`.
    func catchUp() {
        catchUps += 1
        handlers.catchUp()
    }

    /// Closes the listener and every link.
    func stop() {
        stopped = true
        listener.close()
        for link in Array(subscribers.values) + Array(accepted.values) + dials.values.compactMap(\.link) {
            link.connection.close(.abortive)
        }
        for dial in dials.values { dial.attempt?.cancel() }
        (subscribers, accepted, dials, view) = ([:], [:], [:], nil)
    }
}
