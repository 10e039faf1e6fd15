import IMProtocol
import IMStore
import IMTransport
import MQTT

/// One client's MQTT connection as the broker sees it: its login, keep-alive and deliveries.
///
/// Lives on the broker's event loop; the transport calls it there, and so does `BrokerCore`.
final class BrokerConnection: ConnectionHandler {
    enum Phase: Equatable {
        /// Accepted; only CONNECT may come.
        case awaitingConnect
        /// CONNECT received; the store is being asked about the user and device.
        case authenticating
        /// CONNACK 0x00 sent.
        case online
        case closed
    }

    /// Who logged in on this connection.
    struct Login {
        var appKey: String
        var userID: String
        var deviceID: String
        var platform: Platform
        var device: DeviceKey { DeviceKey(appKey: appKey, userID: userID, deviceID: deviceID) }
    }

    // Stored properties go from the widest to the narrowest: Swift lays them out in this order,
    // and every idle connection keeps one of these, so padding between flags adds up.
    let id: UInt64
    let connection: Connection
    unowned let core: BrokerCore
    var login: Login?
    /// When the last packet came (the accept until the first one): keep-alive and connect
    /// timeout count from it (`BrokerCore.checkDeadlines`).
    var lastPacketAt: Duration = .zero
    /// 1.5 × the client's Keep Alive, once online; zero when it asked for none (not an optional:
    /// its flag would cost 8 bytes of padding).
    var keepAlive = Duration.zero
    /// Its row in the cluster's `presence` table, once recorded (several nodes only).
    var presenceSequence: Int64?
    /// The will to send if the connection ends abnormally; DISCONNECT 0x00 clears it.
    var will: WillMessage?
    /// The user's next connection in `BrokerCore.online` (see `OnlineUsers`).
    var nextOfUser: BrokerConnection?

    /// Deliveries: messages in flight by packet id, and paging state.
    var inflight: [UInt16: Int64] = [:]
    var lastQueuedMessageID: Int64 = 0
    /// How many deliveries may be unacknowledged at once (the client's Receive Maximum, capped).
    var window = 32
    /// The client's Maximum Packet Size (CONNECT): no delivery larger than it is sent.
    var clientMaximumPacketSize: UInt32?
    var nextPacketID: UInt16 = 0
    var phase = Phase.awaitingConnect
    /// The listener that accepted it (for `/metrics`).
    let transport: MQTTTransport
    /// The client speaks MQTT 3.1.1 (CONNECT at level 4): packets go both ways in that form.
    var speaks311 = false
    /// CONNACK 0x00 went out: from then on the connection's end may send its will.
    var wentOnline = false
    /// Subscribed to the inbox.
    var subscribed = false
    /// The QoS granted for the inbox: deliveries go at it (a QoS 1 message at QoS 0 or 1).
    var deliveryQoS = QoS.atLeastOnce
    var fetching = false
    var fetchAgain = false
    /// The last read of the queue found nothing past `lastQueuedMessageID`, and every message
    /// stored for the device since was handed over: a new one may go out without a read.
    var caughtUp = false

    /// Messages from this client waiting to be stored: stores run one batch at a time so
    /// PUBACKs go out in the order the PUBLISHes came.
    var publishes = PendingBatch<PendingPublish>()
    /// The payload bytes of `publishes.waiting`.
    var publishBytesWaiting = 0
    /// Reading stopped because too much waits to be stored (`BrokerCore.holdBackIfBehind`).
    var heldBack = false

    init(id: UInt64, connection: Connection, core: BrokerCore, transport: MQTTTransport = .tcp) {
        self.id = id
        self.connection = connection
        self.core = core
        self.transport = transport
    }

    func send(_ packet: Packet) {
        guard phase != .closed else { return }
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
            phase = .closed
        }
    }

    func close(_ mode: CloseMode) {
        guard phase != .closed else { return }
        phase = .closed
        connection.close(mode)
    }

    // MARK: ConnectionHandler

    func connection(_ connection: Connection, didReceive frame: [UInt8]) {
        guard phase != .closed else { return }
        lastPacketAt = core.clock.monotonic()
        let packet: Packet
        do {
            if phase == .awaitingConnect && MQTT311.isPre5Connect(frame) { speaks311 = true }
            packet = speaks311 ? try MQTT311.decode(frame: frame) : try Packet(frame: frame)
        } catch {
            refuseMalformed(error)
            return
        }
        switch (phase, packet) {
        case (.awaitingConnect, .connect(let connect)):
            core.handleConnect(self, connect)
        case (.awaitingConnect, _), (.authenticating, _):
            // MQTT: the first packet must be CONNECT; nothing else is read before CONNACK.
            close(.abortive)
        case (.online, .publish(let publish)):
            core.handlePublish(self, publish)
        case (.online, .puback(let ack)):
            core.handleDeliveryAcknowledgement(self, ack.packetIdentifier)
        case (.online, .subscribe(let subscribe)):
            core.handleSubscribe(self, subscribe)
        case (.online, .unsubscribe(let unsubscribe)):
            core.handleUnsubscribe(self, unsubscribe)
        case (.online, .pingreq):
            send(.pingresp)
        case (.online, .disconnect(let disconnect)):
            core.notePush(self, disconnect)
            if disconnect.reasonCode == .normalDisconnection { will = nil }
            core.removeFromOnline(self)
            close(.graceful)
        case (.online, .connect):
            core.disconnect(self, .protocolError)
        case (.online, .pubrec), (.online, .pubrel), (.online, .pubcomp):
            core.disconnect(self, .qosNotSupported)
        default:
            core.disconnect(self, .protocolError)
        }
    }

    /// QoS 0 deliveries wait for room in the outgoing buffer rather than for PUBACKs.
    func connectionDidBecomeWritable(_ connection: Connection) {
        if deliveryQoS == .atMostOnce { core.pump(self) }
    }

    func connection(_ connection: Connection, didCloseWith error: TransportError?) {
        phase = .closed
        core.connectionClosed(self)
    }

    /// A packet over our Maximum Packet Size or with a bad length: say so (0x95 / 0x81) before closing.
    func connection(_ connection: Connection, didRefuseFraming error: FrameError) {
        guard phase != .closed else { return }
        refuseMalformed(MQTTError(error))
    }

    /// A packet that does not decode: CONNACK before login, DISCONNECT after, with its reason (0x81/0x82/...).
    private func refuseMalformed(_ error: MQTTError) {
        if phase == .awaitingConnect {
            send(.connack(ConnAck(reasonCode: error.reasonCode, properties: [.reasonString(error.message)])))
            core.counters.loginsRefused[BrokerCounters.Reason(error.reasonCode), default: 0] += 1
            close(.graceful)
        } else {
            core.disconnect(self, error.reasonCode)
        }
    }
}

/// A PUBLISH from a client, checked and waiting for its PUBACK: stored first, or refused in its
/// turn (PUBACKs go in the order of their PUBLISHes, MQTT-4.6.0-2, so a refusal waits for the
/// earlier PUBLISHes still being stored).
struct PendingPublish {
    enum Content {
        case store(NewMessage)
        case refuse(ReasonCode)
    }

    var packetIdentifier: UInt16?
    var content: Content

    var message: NewMessage? {
        guard case .store(let message) = content else { return nil }
        return message
    }
}
