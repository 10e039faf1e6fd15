import IMProtocol
import IMTransport
import MQTT

/// A bare MQTT 5 client for tests, built from the codec and the transport: it sends exactly
/// the packets a test gives it and collects what the server sends back.
final class MQTTTestClient: Sendable {
    static let loops = try! EventLoopGroup(threads: 1, name: "mqtt-test-client")

    let connection: Connection
    let inbox = PacketInbox()

    private init(connection: Connection) {
        self.connection = connection
        let frames = connection.frames()
        let inbox = self.inbox
        Task {
            do {
                for try await frame in frames {
                    await inbox.append(try Packet(frame: frame))
                }
                await inbox.end(nil)
            } catch {
                await inbox.end("\(error)")
            }
        }
    }

    /// Connects to `port`; with `tls`, over TLS verified with those settings; with `webSocket`, over WebSocket.
    static func open(port: UInt16, tls: TLSConnectSettings? = nil, webSocket: WebSocketSettings? = nil) async throws -> MQTTTestClient {
        MQTTTestClient(connection: try await Connection.connect(
            to: "127.0.0.1", port: port, options: ConnectOptions(timeout: .seconds(5), tls: tls, webSocket: webSocket), on: loops.next()))
    }

    func send(_ packet: Packet) async throws {
        try await connection.write(packet.encoded())
    }

    /// The next packet from the server, or nil when none comes within `timeout` or the connection ended.
    func next(within timeout: Duration = .seconds(5)) async -> Packet? {
        await inbox.take(within: timeout)
    }

    /// Whether the server closed the connection within `timeout`.
    func closed(within timeout: Duration = .seconds(5)) async -> Bool {
        await inbox.ended(within: timeout)
    }

    func close() { connection.close(.abortive) }

    /// Sends CONNECT as the engine would (contract section 1) and returns the CONNACK.
    func login(
        appKey: String, token: String, device: String, platform: String? = nil, reconnect: Bool = false,
        kickEnable: Bool = false, keepAlive: UInt16 = 30
    ) async throws -> ConnAck? {
        var properties: Properties = [.sessionExpiryInterval(7 * 24 * 3600)]
        if let platform { properties.appendUserProperty(IMUserProperty.platform, platform) }
        if reconnect { properties.appendUserProperty(IMUserProperty.reconnect, IMUserProperty.flagSet) }
        if kickEnable { properties.appendUserProperty(IMUserProperty.kickEnable, IMUserProperty.flagSet) }
        try await send(.connect(Connect(
            clientIdentifier: device, cleanStart: false, keepAlive: keepAlive, userName: appKey,
            password: Array(token.utf8), properties: properties)))
        guard case .connack(let connack)? = await next() else { return nil }
        return connack
    }

    /// Subscribes to the inbox and returns the SUBACK's codes.
    func subscribeInbox(packetID: UInt16 = 1) async throws -> [ReasonCode] {
        try await subscribe([IMTopic.inboxFilter], packetID: packetID)
    }

    func subscribe(_ filters: [String], packetID: UInt16 = 1) async throws -> [ReasonCode] {
        try await send(.subscribe(Subscribe(
            packetIdentifier: packetID,
            subscriptions: filters.map { Subscribe.Subscription($0, options: SubscriptionOptions(qos: .atLeastOnce)) })))
        guard case .suback(let suback)? = await next() else { return [] }
        return suback.reasonCodes
    }

    /// Sends a text message as section 5 describes and returns the PUBACK's code.
    func sendText(_ text: String, to user: String, cid: String, packetID: UInt16, topic: String? = nil, from: String? = nil) async throws -> ReasonCode? {
        try await send(.publish(Publish(
            topic: topic ?? IMTopic.send(to: user).name, payload: TextMessage(text: text, cid: cid, from: from).encoded(),
            qos: .atLeastOnce, packetIdentifier: packetID,
            properties: [.payloadFormatIndicator(.utf8), .contentType(TextMessage.contentType)])))
        guard case .puback(let puback)? = await next() else { return nil }
        return puback.reasonCode
    }
}

/// Packets received by a test client, waited for with a bound.
actor PacketInbox {
    private var packets: [Packet] = []
    private var endReason: String??

    func append(_ packet: Packet) { packets.append(packet) }
    func end(_ reason: String?) { endReason = .some(reason) }

    func take(within timeout: Duration) async -> Packet? {
        let deadline = ContinuousClock.now + timeout
        while packets.isEmpty {
            guard endReason == nil, ContinuousClock.now < deadline else { return nil }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return packets.removeFirst()
    }

    func ended(within timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while endReason == nil && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        return endReason != nil
    }
}
