import IMEngine
import IMProtocol
import IMTransport
import MQTT
import Synchronization

/// A scripted MQTT 5 peer on 127.0.0.1: answers CONNECT as the test says, acknowledges
/// SUBSCRIBE, PUBLISH and PINGREQ unless told not to, records every packet it receives, and
/// sends DISCONNECTs and PUBLISHes on request.
final class ScriptedBroker: Sendable {
    struct Script: Sendable {
        /// The CONNACK for connection `index` (0-based) and its CONNECT; nil sends nothing.
        var connack: @Sendable (_ index: Int, _ connect: Connect) -> ConnAck? = { _, connect in ScriptedBroker.accept(connect) }
        /// The PUBACK reason for a QoS 1 PUBLISH from the client; nil withholds the PUBACK.
        var publishAcknowledgement: @Sendable (_ index: Int, _ publish: Publish) -> ReasonCode? = { _, _ in .success }
        /// Runs on the broker's loop the moment a PUBACK from the client arrives.
        var onPubAck: @Sendable (_ index: Int, _ acknowledgement: PubAck) -> Void = { _, _ in }
    }

    private struct State {
        var connections: [Connection] = []
        var received: [(index: Int, packet: Packet)] = []
        var silenced: Set<Int> = []
        var closed: Set<Int> = []
    }

    let script: Script
    private let group: EventLoopGroup
    private let listener: Listener
    private let state = Mutex(State())

    init(_ script: Script = Script()) throws {
        self.script = script
        let group = try EventLoopGroup(threads: 1, name: "broker")
        self.group = group
        let box = Mutex(WeakBroker())
        listener = try Listener(group: group) { connection in
            box.withLock { $0.broker }?.accept(connection)
        }
        box.withLock { $0.broker = self }
    }

    var port: UInt16 { listener.localAddress.port }
    var address: ServerAddress { ServerAddress(host: "127.0.0.1", port: port) }

    /// CONNACK 0x00 with `im-user-id` read from the token.
    static func accept(_ connect: Connect, sessionPresent: Bool = false) -> ConnAck {
        let token = String(decoding: connect.password ?? [], as: UTF8.self)
        let user = (try? TokenClaims.read(token).userID) ?? "unknown"
        return ConnAck(sessionPresent: sessionPresent, reasonCode: .success,
                       properties: [.userProperty(IMUserProperty.userID, user)])
    }

    /// A refusal with `reason` and, when given, `im-error` and a Server Reference.
    static func refuse(_ reason: ReasonCode, _ name: IMErrorName? = nil, reference: String? = nil) -> ConnAck {
        var properties: Properties = []
        if let name { properties.append(.userProperty(IMUserProperty.error, name.rawValue)) }
        if let reference { properties.append(.serverReference(reference)) }
        return ConnAck(reasonCode: reason, properties: properties)
    }

    func shutdown() {
        listener.close()
        group.shutdown()
    }

    // MARK: - What the client did

    var connectionCount: Int { state.withLock { $0.connections.count } }

    var connects: [Connect] {
        packets.compactMap { if case .connect(let connect) = $0.packet { connect } else { nil } }
    }

    var packets: [(index: Int, packet: Packet)] { state.withLock { $0.received } }

    func packets(on index: Int) -> [Packet] { packets.filter { $0.index == index }.map(\.packet) }

    var publishes: [Publish] {
        packets.compactMap { if case .publish(let publish) = $0.packet { publish } else { nil } }
    }

    /// The PUBLISHes received on connection `index`.
    func publishes(on index: Int) -> [Publish] {
        packets(on: index).compactMap { if case .publish(let publish) = $0 { publish } else { nil } }
    }

    var pubAcks: [PubAck] {
        packets.compactMap { if case .puback(let ack) = $0.packet { ack } else { nil } }
    }

    func isClosed(_ index: Int) -> Bool { state.withLock { $0.closed.contains(index) } }

    // MARK: - Acting

    /// Sends `packet` on connection `index`.
    func send(_ packet: Packet, on index: Int) {
        guard let connection = state.withLock({ $0.connections.indices.contains(index) ? $0.connections[index] : nil }) else { return }
        let bytes = packet.encoded()
        connection.loop.execute { _ = try? connection.send(bytes) }
    }

    /// Sends `packets` on connection `index` in one write, so they arrive together.
    func send(_ packets: [Packet], on index: Int) {
        guard let connection = state.withLock({ $0.connections.indices.contains(index) ? $0.connections[index] : nil }) else { return }
        let bytes = packets.flatMap { $0.encoded() }
        connection.loop.execute { _ = try? connection.send(bytes) }
    }

    /// Closes connection `index` without a DISCONNECT, as a broker that drops the client does.
    func close(_ index: Int) {
        state.withLock { $0.connections.indices.contains(index) ? $0.connections[index] : nil }?.close(.abortive)
    }

    /// From now on connection `index` answers nothing and stays open: a peer gone silent.
    func silence(_ index: Int) {
        _ = state.withLock { $0.silenced.insert(index) }
    }

    // MARK: - The loop side

    private func accept(_ connection: Connection) {
        let index = state.withLock { state in
            state.connections.append(connection)
            return state.connections.count - 1
        }
        connection.start(Handler(broker: self, index: index))
    }

    fileprivate func handle(_ frame: [UInt8], index: Int, on connection: Connection) {
        guard let packet = try? Packet(frame: frame) else { return connection.close(.abortive) }
        let silenced = state.withLock { state in
            state.received.append((index, packet))
            return state.silenced.contains(index)
        }
        guard !silenced else { return }
        switch packet {
        case .connect(let connect):
            guard let connack = script.connack(index, connect) else { return }
            _ = try? connection.send(Packet.connack(connack).encoded())
            if connack.reasonCode.isFailure { connection.close() }
        case .subscribe(let subscribe):
            let acknowledgement = SubAck(packetIdentifier: subscribe.packetIdentifier,
                                         reasonCodes: subscribe.subscriptions.map { _ in .grantedQoS1 })
            _ = try? connection.send(Packet.suback(acknowledgement).encoded())
        case .publish(let publish):
            guard publish.qos == .atLeastOnce, let reason = script.publishAcknowledgement(index, publish) else { return }
            _ = try? connection.send(Packet.puback(PubAck(packetIdentifier: publish.packetIdentifier, reasonCode: reason)).encoded())
        case .pingreq:
            _ = try? connection.send(Packet.pingresp.encoded())
        case .puback(let acknowledgement):
            script.onPubAck(index, acknowledgement)
        default:
            break
        }
    }

    fileprivate func closed(_ index: Int) {
        _ = state.withLock { $0.closed.insert(index) }
    }

    private struct WeakBroker {
        weak var broker: ScriptedBroker?
    }

    private final class Handler: ConnectionHandler {
        let broker: ScriptedBroker
        let index: Int

        init(broker: ScriptedBroker, index: Int) {
            self.broker = broker
            self.index = index
        }

        func connection(_ connection: Connection, didReceive frame: [UInt8]) {
            broker.handle(frame, index: index, on: connection)
        }

        func connection(_ connection: Connection, didCloseWith error: TransportError?) {
            broker.closed(index)
        }
    }
}
