import IMProtocol
import IMStore
import IMTransport
import MQTT

/// One client's MQTT connection as the broker sees it: its login, keep-alive and deliveries.
///
/// Lives on the broker's event loop; the transport calls it there, and so does `BrokerCore`.
/// Its state changes only through its own methods: the broker's parts ask, the connection
/// checks that the change fits where it is (`State`).
final class BrokerConnection: ConnectionHandler {
    /// Where the connection is in its life, with what it knows there.
    enum State {
        /// Accepted; only CONNECT may come.
        case connecting
        /// CONNECT checked; the store is being asked about the user and device.
        case authenticating(Login)
        /// CONNACK 0x00 sent.
        case online(Login, Delivery)
        /// Closed, by either side; with the login it had, if it came that far: what the
        /// connection left behind (its place among the user's connections, its presence, its
        /// will) is found by it.
        case closed(afterLogin: Login?)
    }

    /// The cases of `State` without their data.
    enum Stage {
        case connecting, authenticating, online, closed
    }

    // Stored properties go from the widest to the narrowest: Swift lays them out in this order,
    // and every idle connection keeps one of these, so padding between flags adds up.
    let id: UInt64
    let connection: Connection
    unowned let core: BrokerCore
    private(set) var state = State.connecting
    /// When the last packet came (the accept until the first one): keep-alive and connect
    /// timeout count from it (`Deadlines`).
    private(set) var lastPacketAt: Duration
    /// 1.5 × the client's Keep Alive, once online; zero when it asked for none (not an optional:
    /// its flag would cost 8 bytes of padding).
    private(set) var keepAlive = Duration.zero
    /// Its row in the cluster's `presence` table, once recorded (several nodes only).
    private(set) var presenceSequence: Int64?
    /// The will to send if the connection ends abnormally; DISCONNECT 0x00 clears it, and so
    /// does an end before CONNACK 0x00 (only a connection that went online leaves a will).
    private(set) var will: WillMessage?
    /// The user's next connection in `BrokerCore.online`, threaded by `OnlineUsers`, its owner.
    var nextOfUser: BrokerConnection?

    /// Messages in flight by packet id.
    private var inflight: [UInt16: Int64] = [:]
    /// The newest message handed over: the next read of the queue starts past it.
    private(set) var lastQueuedMessageID: Int64 = 0
    /// How many deliveries may be unacknowledged at once (the client's Receive Maximum, capped).
    private(set) var window = 32
    /// The client's Maximum Packet Size (CONNECT): no delivery larger than it is sent.
    private(set) var clientMaximumPacketSize: UInt32?
    private var nextPacketID: UInt16 = 0
    /// The listener that accepted it (for `/metrics`).
    let transport: MQTTTransport
    /// The client speaks MQTT 3.1.1 (CONNECT at level 4): packets go both ways in that form.
    private(set) var speaks311 = false

    /// Messages from this client waiting to be stored: stores run one batch at a time so
    /// PUBACKs go out in the order the PUBLISHes came.
    private(set) var publishes = PendingBatch<PendingPublish>()
    /// The payload bytes of `publishes.waiting`.
    private var publishBytesWaiting = 0
    /// Reading stopped because too much waits to be stored (`holdBackIfBehind`, asked by `Publishing`).
    private(set) var heldBack = false

    init(id: UInt64, connection: Connection, core: BrokerCore, transport: MQTTTransport = .tcp, acceptedAt: Duration) {
        self.id = id
        self.connection = connection
        self.core = core
        self.transport = transport
        self.lastPacketAt = acceptedAt
    }

    /// The login, from CONNECT on (after the connection closed too).
    var login: Login? {
        switch state {
        case .connecting: nil
        case .authenticating(let login), .online(let login, _), .closed(afterLogin: let login?): login
        case .closed(afterLogin: nil): nil
        }
    }

    /// Where the connection is, without what it knows there: for comparisons.
    var stage: Stage {
        switch state {
        case .connecting: .connecting
        case .authenticating: .authenticating
        case .online: .online
        case .closed: .closed
        }
    }

    /// The deliveries of an online connection.
    var delivery: Delivery? {
        guard case .online(_, let delivery) = state else { return nil }
        return delivery
    }

    func send(_ packet: Packet) {
        guard stage != .closed else { return }
        do {
            if speaks311 {
                // 3.1.1 has no server DISCONNECT: the close that follows says it all.
                guard let bytes = MQTT311.encode(packet) else { return }
                try connection.send(bytes)
            } else {
                try connection.send(packet.encoded())
            }
        } catch {
            // The transport closed the connection (buffer overflow or already closed): a
            // client that does not read is dropped so it never stalls the others.
            markClosed()
        }
    }

    func close(_ mode: CloseMode) {
        guard stage != .closed else { return }
        markClosed()
        connection.close(mode)
    }

    /// The transport closed the connection (the client left, or it was closed here).
    func transportClosed() {
        markClosed()
    }

    /// Notes when a packet came and decodes it in the client's protocol: MQTT 3.1.1 from a
    /// CONNECT at level 4 on.
    func read(_ frame: [UInt8]) throws(MQTTError) -> Packet {
        lastPacketAt = core.clock.monotonic()
        if stage == .connecting && MQTT311.isPre5Connect(frame) { speaks311 = true }
        return speaks311 ? try MQTT311.decode(frame: frame) : try Packet(frame: frame)
    }

    /// Closed, whatever it was doing: a will stays only if the connection went online.
    private func markClosed() {
        switch state {
        case .connecting: state = .closed(afterLogin: nil)
        case .authenticating(let login):
            will = nil
            state = .closed(afterLogin: login)
        case .online(let login, _): state = .closed(afterLogin: login)
        case .closed: break
        }
    }

    // MARK: Login

    /// CONNECT checked out as far as it could without the store: the login waits for it.
    func authenticate(_ login: Login, will: WillMessage?) {
        guard stage == .connecting else { return }
        self.will = will
        state = .authenticating(login)
    }

    /// The client's limits on deliveries, from its CONNECT: Receive Maximum and Maximum Packet Size.
    func limitDeliveries(receiveMaximum: UInt16?, maximumPacketSize: UInt32?) {
        if let receiveMaximum { window = min(window, Int(receiveMaximum)) }
        clientMaximumPacketSize = maximumPacketSize
    }

    /// CONNACK 0x00 is going out: online from here, with nothing subscribed yet. Returns the
    /// login, or nil when the connection was not waiting for it.
    func goOnline() -> Login? {
        guard case .authenticating(let login) = state else { return nil }
        state = .online(login, Delivery())
        return login
    }

    /// Starts the keep-alive: `period` is 1.5 × the client's Keep Alive.
    func expectPackets(every period: Duration) {
        keepAlive = period
    }

    /// The will is not sent: DISCONNECT 0x00, an operator's action, a takeover.
    func dropWill() {
        will = nil
    }

    /// The will, once: the connection's end sends it.
    func takeWill() -> WillMessage? {
        defer { will = nil }
        return will
    }

    /// The login's row in the cluster's `presence` table, written (nil where it was not).
    func recordPresence(_ sequence: Int64?) {
        presenceSequence = sequence
    }

    /// The presence row to remove, once.
    func takePresence() -> Int64? {
        defer { presenceSequence = nil }
        return presenceSequence
    }

    // MARK: Deliveries

    /// How many more deliveries may be in flight.
    var room: Int { window - inflight.count }

    /// SUBSCRIBE to the inbox granted at `qos`.
    func subscribe(at qos: QoS) { updateDelivery { $0.subscribe(at: qos) } }
    /// UNSUBSCRIBE from the inbox; false when it was not subscribed.
    func unsubscribe() -> Bool { updateDelivery { $0.unsubscribe() } ?? false }
    /// Starts a read of the queue if one may start (`Delivery.beginRead`): returns the login
    /// and the room to fill.
    func beginRead() -> (login: Login, room: Int)? {
        guard let login, updateDelivery({ $0.beginRead(room: room) }) == true else { return nil }
        return (login, room)
    }
    /// The read under way was answered; returns whether another was asked for meanwhile.
    func endRead() -> Bool { updateDelivery { $0.endRead() } ?? false }
    /// The read just answered left the connection caught up.
    func catchUp() { updateDelivery { $0.catchUp() } }
    /// A new message was left for a read: no longer caught up.
    func fallBehind() { updateDelivery { $0.fallBehind() } }

    /// `messageID` was handed over: reads of the queue start past it.
    func handedOver(_ messageID: Int64) {
        lastQueuedMessageID = max(lastQueuedMessageID, messageID)
    }

    /// The next packet identifier not in flight (1...65535), now in flight with `messageID`.
    func takePacketIdentifier(for messageID: Int64) -> UInt16 {
        repeat {
            nextPacketID = nextPacketID == .max ? 1 : nextPacketID + 1
        } while inflight[nextPacketID] != nil
        inflight[nextPacketID] = messageID
        return nextPacketID
    }

    /// The message that `packetID` carried, no longer in flight; nil for a packet id not in flight.
    func settle(_ packetID: UInt16) -> Int64? {
        inflight.removeValue(forKey: packetID)
    }

    /// Changes the deliveries of an online connection; nil when it is not online.
    private func updateDelivery<T>(_ change: (inout Delivery) -> T) -> T? {
        guard case .online(let login, var delivery) = state else { return nil }
        defer { state = .online(login, delivery) }
        return change(&delivery)
    }

    // MARK: Publishes

    /// Puts `pending` in line behind the client's earlier PUBLISHes.
    func queue(_ pending: PendingPublish, payloadBytes: Int) {
        publishes.add(pending)
        publishBytesWaiting += payloadBytes
    }

    /// Stops reading the client while a batch is being stored and `limit` or more wait behind it.
    func holdBackIfBehind(_ limit: (count: Int, bytes: Int)) {
        guard !heldBack, publishes.isBusy else { return }
        guard publishes.waiting.count >= limit.count || publishBytesWaiting >= limit.bytes else { return }
        heldBack = true
        connection.pauseReading()
    }

    /// The next batch of PUBLISHes to store, if none is under way; reading resumes if it was
    /// held back (and `mayResume`: not a client being sent away), the Keep Alive counting from
    /// `now` (the wait was the server's).
    func takePublishes(now: Duration, mayResume: Bool) -> [PendingPublish]? {
        guard let batch = publishes.next() else { return nil }
        publishBytesWaiting = 0
        if heldBack, mayResume {
            heldBack = false
            lastPacketAt = now
            connection.resumeReading()
        }
        return batch
    }

    /// The batch under way is stored (or refused).
    func finishPublishes() {
        publishes.finish()
    }
}
