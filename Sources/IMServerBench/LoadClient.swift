import IMBench
import IMTransport
import MQTT
import Synchronization

/// One bare MQTT 5 connection of a server bench, publisher or subscriber, driven on its
/// event loop: no database, no session engine, so the figures are the server's.
///
/// Deliveries are acknowledged at once (QoS 1) and handed to the ledger; PUBACKs free their
/// packet identifier and call `onAcknowledged`, which a saturated publisher uses to send the
/// next message.
final class LoadClient: ConnectionHandler, Sendable {
    private struct State {
        var nextID: UInt16 = 0
        /// Packet identifier to message id, for messages not yet acknowledged.
        var inFlight: [UInt16: UInt64] = [:]
        var onAcknowledged: (@Sendable () -> Void)?
    }

    let connection: Connection
    let loop: EventLoop
    let ledger: LoadLedger
    private let state = Mutex(State())
    private let connack = OneShot<Result<Void, BenchError>>()
    private let suback = OneShot<Result<Void, BenchError>>()

    private init(connection: Connection, loop: EventLoop, ledger: LoadLedger) {
        self.connection = connection
        self.loop = loop
        self.ledger = ledger
    }

    /// Connects to `server` and logs in with `connect`; throws what refused it.
    static func open(_ connect: Connect, to server: LoadTarget.Endpoint, on loop: EventLoop, ledger: LoadLedger) async throws(BenchError) -> LoadClient {
        let connection: Connection
        do {
            var options = ConnectOptions(timeout: .seconds(10))
            options.webSocket = server.webSocketPath.map { WebSocketSettings(path: $0) }
            connection = try await Connection.connect(to: server.address.host, port: server.address.port, options: options, on: loop)
        } catch {
            throw BenchError("cannot connect to \(server): \(error)")
        }
        let client = LoadClient(connection: connection, loop: loop, ledger: ledger)
        let packet = Packet.connect(connect).encoded()
        _ = loop.execute {
            connection.start(client)
            _ = try? connection.send(packet)
        }
        try await client.connack.wait().get()
        return client
    }

    /// Subscribes to `filter` at QoS 1; throws when the server refuses it.
    func subscribe(_ filter: String) async throws(BenchError) {
        var options = SubscriptionOptions()
        options.qos = .atLeastOnce
        let packet = Packet.subscribe(Subscribe(packetIdentifier: 1, subscriptions: [.init(filter, options: options)])).encoded()
        _ = loop.execute { [connection] in _ = try? connection.send(packet) }
        try await suback.wait().get()
    }

    /// Sends message `id` with `payload` to `topic` at QoS 1. Call on the loop.
    func publish(_ payload: [UInt8], topic: String, id: UInt64) {
        let packetID = state.withLock { state -> UInt16? in
            guard state.inFlight.count < Int(UInt16.max) - 1 else { return nil }
            repeat {
                state.nextID = state.nextID == UInt16.max ? 1 : state.nextID + 1
            } while state.inFlight[state.nextID] != nil
            state.inFlight[state.nextID] = id
            return state.nextID
        }
        guard let packetID else { return ledger.problem("65,534 messages unacknowledged: not sent") }
        let packet = Packet.publish(Publish(topic: topic, payload: payload, qos: .atLeastOnce, packetIdentifier: packetID))
        do {
            _ = try connection.send(packet.encoded())
            ledger.published(at: .now)
        } catch {
            ledger.problem("publish: \(error)")
        }
    }

    var unacknowledged: Int { state.withLock { $0.inFlight.count } }

    func onAcknowledged(_ action: @escaping @Sendable () -> Void) {
        state.withLock { $0.onAcknowledged = action }
    }

    func close() {
        _ = loop.execute { [connection] in
            _ = try? connection.send(Packet.disconnect(Disconnect()).encoded())
            connection.close(.graceful)
        }
    }

    func connection(_ connection: Connection, didReceive frame: [UInt8]) {
        let arrived = ContinuousClock.now
        guard let packet = try? Packet(frame: frame) else { return ledger.problem("a packet that does not decode") }
        switch packet {
        case .connack(let answer):
            connack.fulfil(answer.reasonCode == .success ? .success(()) : .failure(BenchError("CONNACK \(answer.reasonCode)")))
        case .suback(let answer):
            let refused = answer.reasonCodes.first { $0.isFailure }
            suback.fulfil(refused.map { .failure(BenchError("SUBACK \($0)")) } ?? .success(()))
        case .publish(let delivery):
            if delivery.qos == .atLeastOnce {
                _ = try? connection.send(Packet.puback(PubAck(packetIdentifier: delivery.packetIdentifier)).encoded())
            }
            ledger.delivered(delivery.payload, at: arrived)
        case .puback(let answer):
            let (id, next) = state.withLock { ($0.inFlight.removeValue(forKey: answer.packetIdentifier), $0.onAcknowledged) }
            guard let id else { return }
            ledger.acknowledged(id, reason: answer.reasonCode.isFailure ? "PUBACK \(answer.reasonCode)" : nil)
            next?()
        case .disconnect(let notice):
            ledger.problem("DISCONNECT \(notice.reasonCode)")
        default:
            break
        }
    }

    func connection(_ connection: Connection, didCloseWith error: TransportError?) {
        connack.fulfil(.failure(BenchError("closed before CONNACK: \(error.map { "\($0)" } ?? "by us")")))
        suback.fulfil(.failure(BenchError("closed before SUBACK")))
        if let error { ledger.problem("closed: \(error)") }
    }
}
