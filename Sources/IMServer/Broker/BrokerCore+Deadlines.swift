import IMTransport

extension BrokerCore {
    /// A connection's next check in `deadlines`: its connect timeout, or its keep-alive.
    struct DeadlineCheck {
        var connectionID: UInt64
        var keepAlive: Bool
    }

    /// How late a connect timeout or keep-alive may be noticed: the wheel's tick.
    static let deadlineTick = Duration.milliseconds(250)

    /// Closes `broker` if no CONNECT came within the connect timeout (counted from `lastPacketAt`,
    /// which is its accept time until a packet arrives).
    func watchConnectTimeout(_ broker: BrokerConnection) {
        addDeadline(DeadlineCheck(connectionID: broker.id, keepAlive: false), at: broker.lastPacketAt + limits.connectTimeout)
    }

    /// Starts enforcing the client's Keep Alive: no packet for 1.5 × it means DISCONNECT 0x8D.
    ///
    /// The first check comes a full period after CONNACK, not after CONNECT: a client whose
    /// login the store kept waiting has not had the time to send anything yet.
    func watchKeepAlive(_ broker: BrokerConnection, seconds: UInt16) {
        guard seconds > 0 else { return }
        let keepAlive = Duration.seconds(Int(seconds)) * 1.5
        broker.expectPackets(every: keepAlive)
        addDeadline(DeadlineCheck(connectionID: broker.id, keepAlive: true), at: clock.monotonic() + keepAlive)
    }

    private func addDeadline(_ check: DeadlineCheck, at deadline: Duration) {
        deadlines.insert(check, at: deadline.nanoseconds)
        guard !deadlineTimerArmed else { return }
        deadlineTimerArmed = true
        loop.scheduleTimer(after: Self.deadlineTick) { [weak self] in self?.checkDeadlines() }
    }

    /// Every tick while any deadline is filed: acts on those due, files the others again.
    private func checkDeadlines() {
        deadlineTimerArmed = false
        let now = clock.monotonic()
        for check in deadlines.advance(to: now.nanoseconds) {
            // A connection that closed meanwhile has left `connections`, and its checks with it.
            guard let broker = connections[check.connectionID] else { continue }
            if check.keepAlive {
                let keepAlive = broker.keepAlive
                guard broker.stage == .online, keepAlive > .zero else { continue }
                // A client held back (its messages wait for the store) may have sent its
                // PINGREQ: the wait is the server's, not the client's silence.
                if now - broker.lastPacketAt >= keepAlive && !broker.heldBack {
                    disconnect(broker, .keepAliveTimeout)
                } else {
                    addDeadline(check, at: (broker.heldBack ? now : broker.lastPacketAt) + keepAlive)
                }
            } else if broker.stage == .connecting {
                if now - broker.lastPacketAt >= limits.connectTimeout {
                    broker.close(.abortive)
                } else {
                    addDeadline(check, at: broker.lastPacketAt + limits.connectTimeout)
                }
            }
        }
        if !deadlineTimerArmed && !deadlines.isEmpty {
            deadlineTimerArmed = true
            loop.scheduleTimer(after: Self.deadlineTick) { [weak self] in self?.checkDeadlines() }
        }
    }
}
