import IMTransport

/// Every connection's connect timeout and keep-alive, on one timer (see `DeadlineWheel`): a
/// part of `BrokerCore`, which it asks for the connections and to disconnect them.
final class Deadlines {
    /// A connection's next check: its connect timeout, or its keep-alive.
    struct Check {
        var connectionID: UInt64
        var keepAlive: Bool
    }

    /// How late a connect timeout or keep-alive may be noticed: the wheel's tick.
    static let tick = Duration.milliseconds(250)

    private unowned let core: BrokerCore
    private var wheel: DeadlineWheel<Check>
    private var timerArmed = false

    init(core: BrokerCore) {
        self.core = core
        self.wheel = DeadlineWheel(tick: Self.tick, now: core.clock.monotonic().nanoseconds)
    }

    /// Closes `broker` if no CONNECT came within the connect timeout (counted from `lastPacketAt`,
    /// which is its accept time until a packet arrives).
    func watchConnectTimeout(_ broker: BrokerConnection) {
        add(Check(connectionID: broker.id, keepAlive: false), at: broker.lastPacketAt + core.limits.connectTimeout)
    }

    /// Starts enforcing the client's Keep Alive: no packet for 1.5 × it means DISCONNECT 0x8D.
    ///
    /// The first check comes a full period after CONNACK, not after CONNECT: a client whose
    /// login the store kept waiting has not had the time to send anything yet.
    func watchKeepAlive(_ broker: BrokerConnection, seconds: UInt16) {
        guard seconds > 0 else { return }
        let keepAlive = Duration.seconds(Int(seconds)) * 1.5
        broker.expectPackets(every: keepAlive)
        add(Check(connectionID: broker.id, keepAlive: true), at: core.clock.monotonic() + keepAlive)
    }

    private func add(_ check: Check, at deadline: Duration) {
        wheel.insert(check, at: deadline.nanoseconds)
        armTimer()
    }

    private func armTimer() {
        guard !timerArmed else { return }
        timerArmed = true
        core.loop.scheduleTimer(after: Self.tick) { [weak self] in self?.checkDue() }
    }

    /// Every tick while any deadline is filed: acts on those due, files the others again.
    private func checkDue() {
        timerArmed = false
        let now = core.clock.monotonic()
        let connectTimeout = core.limits.connectTimeout
        for check in wheel.advance(to: now.nanoseconds) {
            // A connection that closed meanwhile has left `connections`, and its checks with it.
            guard let broker = core.connections[check.connectionID] else { continue }
            if check.keepAlive {
                let keepAlive = broker.keepAlive
                guard broker.stage == .online, keepAlive > .zero else { continue }
                // A client held back (its messages wait for the store) may have sent its
                // PINGREQ: the wait is the server's, not the client's silence.
                if now - broker.lastPacketAt >= keepAlive && !broker.heldBack {
                    core.disconnect(broker, .keepAliveTimeout)
                } else {
                    add(check, at: (broker.heldBack ? now : broker.lastPacketAt) + keepAlive)
                }
            } else if broker.stage == .connecting {
                if now - broker.lastPacketAt >= connectTimeout {
                    broker.close(.abortive)
                } else {
                    add(check, at: broker.lastPacketAt + connectTimeout)
                }
            }
        }
        if !wheel.isEmpty { armTimer() }
    }
}
