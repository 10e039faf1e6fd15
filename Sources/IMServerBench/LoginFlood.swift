import IMBench
import IMProtocol
import IMTransport
import MQTT

/// Logs many light clients in to an MQTT server as fast as it takes them: TCP connect,
/// CONNECT with a token, CONNACK; no database, no session engine.
///
/// Measures the server's token-checked connects per second. The connections stay open and
/// idle in a `ConnectionHolder`, so the server's memory per idle connection can be read
/// while they last.
struct LoginFlood: Sendable {
    /// What one run measured.
    struct Result: Sendable {
        /// Connections that got CONNACK 0x00.
        var accepted = 0
        /// Refusals and transport errors by name, with how often each happened.
        var failures: [String: Int] = [:]
        /// From the first connect to the last answer.
        var elapsed: Duration = .zero
        /// Each accepted login's time from the start of its TCP connect to its CONNACK.
        var latencies: [Duration] = []
    }

    var host: String
    var port: UInt16
    var appKey: String
    /// How many logins are under way at once.
    var window: Int

    init(host: String, port: UInt16, appKey: String, window: Int = 256) {
        self.host = host
        self.port = port
        self.appKey = appKey
        self.window = max(1, window)
    }

    /// Logs `accounts` in on `loops`, `window` at a time; the accepted connections stay open
    /// in `holder`. `answered` is called once per login, for progress.
    func run(
        _ accounts: [BenchAccount], on loops: EventLoopGroup, holder: ConnectionHolder, answered: @escaping @Sendable () -> Void
    ) async -> Result {
        // Packets are encoded before the clock starts: the server's work is what is measured.
        let packets = accounts.map { account in
            Packet.connect(Connect(
                clientIdentifier: account.deviceID, cleanStart: true, keepAlive: 600, userName: appKey,
                password: Array((account.token ?? "").utf8),
                properties: [.sessionExpiryInterval(3600), .userProperty(IMUserProperty.platform, "pc")])).encoded()
        }
        let (host, port) = (host, port)
        let start = ContinuousClock.now
        var result = Result()
        await withTaskGroup(of: Outcome.self) { tasks in
            var next = 0
            func launch() {
                let (packet, loop) = (packets[next], loops.next())
                tasks.addTask { await Self.login(packet, host: host, port: port, on: loop, holder: holder) }
                next += 1
            }
            while next < min(packets.count, window) { launch() }
            while let outcome = await tasks.next() {
                answered()
                switch outcome {
                case .accepted(let latency):
                    result.accepted += 1
                    result.latencies.append(latency)
                case .failed(let reason):
                    result.failures[reason, default: 0] += 1
                }
                if next < packets.count { launch() }
            }
        }
        result.elapsed = ContinuousClock.now - start
        return result
    }

    enum Outcome: Sendable {
        case accepted(Duration)
        case failed(String)
    }

    private static func login(_ packet: [UInt8], host: String, port: UInt16, on loop: EventLoop, holder: ConnectionHolder) async -> Outcome {
        let start = ContinuousClock.now
        let connection: Connection
        do {
            connection = try await Connection.connect(to: host, port: port, options: ConnectOptions(timeout: .seconds(10)), on: loop)
        } catch {
            return .failed("\(error)")
        }
        let answer = OneShot<Outcome>()
        let listener = ConnAckListener(answer: answer, start: start)
        loop.execute {
            connection.start(listener)
            do {
                _ = try connection.send(packet)
            } catch {
                answer.fulfil(.failed("\(error)"))
            }
        }
        let outcome = await answer.wait()
        if case .accepted = outcome { holder.keep(connection) } else { connection.close(.abortive) }
        return outcome
    }
}

/// Waits for one CONNACK, then ignores what follows (a server may still send DISCONNECT).
private final class ConnAckListener: ConnectionHandler, Sendable {
    let answer: OneShot<LoginFlood.Outcome>
    let start: ContinuousClock.Instant

    init(answer: OneShot<LoginFlood.Outcome>, start: ContinuousClock.Instant) {
        self.answer = answer
        self.start = start
    }

    func connection(_ connection: Connection, didReceive frame: [UInt8]) {
        guard case .connack(let connack)? = try? Packet(frame: frame) else {
            return answer.fulfil(.failed("not a CONNACK"))
        }
        answer.fulfil(connack.reasonCode == .success
            ? .accepted(ContinuousClock.now - start)
            : .failed("CONNACK \(connack.reasonCode)"))
    }

    func connection(_ connection: Connection, didCloseWith error: TransportError?) {
        answer.fulfil(.failed("closed before CONNACK: \(error.map { "\($0)" } ?? "by us")"))
    }
}
