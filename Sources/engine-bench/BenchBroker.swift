import IMProtocol
import IMTransport
import MQTT
import Synchronization

/// The least broker the benchmark needs: accepts every CONNECT, grants SUBSCRIBE, acknowledges
/// PUBLISH and PINGREQ, and delivers inbox messages on request. Runs on its own event loop.
final class BenchBroker: Sendable {
    private let group: EventLoopGroup
    private let listener: Listener
    private let connections = ConnectionList()
    private let acknowledged = Counter()

    init() throws {
        group = try EventLoopGroup(threads: 1, name: "bench-broker")
        let connections = self.connections
        let acknowledged = self.acknowledged
        listener = try Listener(group: group) { connection in
            connections.list.withLock { $0.append(connection) }
            connection.start(Handler(acknowledged: acknowledged))
        }
    }

    var port: UInt16 { listener.localAddress.port }

    /// PUBACKs received from clients for delivered messages.
    var deliveriesAcknowledged: Int { acknowledged.value.load(ordering: .relaxed) }

    /// Sends `count` inbox messages to every connected client.
    func deliver(_ count: Int) {
        for (index, connection) in connections.list.withLock({ $0 }).enumerated() {
            let frames = (0..<count).map { number in
                Packet.publish(Publish(
                    topic: IMTopic.inbox(from: "sender").name,
                    payload: TextMessage(text: "message \(number)", cid: "c\(index)-\(number)", from: "sender").encoded(),
                    qos: .atLeastOnce, packetIdentifier: UInt16(number % 65_535 + 1),
                    properties: [.userProperty(IMUserProperty.messageUID, "u\(index)-\(number)"),
                                 .userProperty(IMUserProperty.sentAt, "1700000000000")])).encoded()
            }
            connection.loop.execute {
                for frame in frames { _ = try? connection.send(frame) }
            }
        }
    }

    func shutdown() {
        listener.close()
        group.shutdown()
    }

    private final class Handler: ConnectionHandler {
        let acknowledged: Counter

        init(acknowledged: Counter) { self.acknowledged = acknowledged }

        func connection(_ connection: Connection, didReceive frame: [UInt8]) {
            guard let packet = try? Packet(frame: frame) else { return connection.close(.abortive) }
            let reply: Packet?
            switch packet {
            case .connect:
                reply = .connack(ConnAck(properties: [.userProperty(IMUserProperty.userID, "bench")]))
            case .subscribe(let subscribe):
                reply = .suback(SubAck(packetIdentifier: subscribe.packetIdentifier, reasonCodes: [.grantedQoS1]))
            case .publish(let publish):
                reply = .puback(PubAck(packetIdentifier: publish.packetIdentifier))
            case .pingreq:
                reply = .pingresp
            case .puback:
                acknowledged.value.add(1, ordering: .relaxed)
                reply = nil
            default:
                reply = nil
            }
            if let reply { _ = try? connection.send(reply.encoded()) }
        }

        func connection(_ connection: Connection, didCloseWith error: TransportError?) {}
    }
}

final class Counter: Sendable {
    let value = Atomic<Int>(0)
}

final class ConnectionList: Sendable {
    let list = Mutex<[Connection]>([])
}
