extension Session {
    /// Everything a front end shows of this session, as of now, in one value.
    public func snapshot() -> SessionSnapshot {
        SessionSnapshot(
            id: id, label: parameters.label, state: state, status: history.last?.status ?? .unknown,
            lastChange: history.last, changeCount: changeCount, userID: userID, databaseFile: databasePath)
    }

    /// The session's state, from the policy's phase and the live link.
    var state: SessionState {
        if isClosed { return .closed }
        if isPreparing { return .preparing }
        switch machine.phase {
        case .idle:
            return history.last?.status == .signOut ? .signedOut : .idle
        case .connecting:
            return .connecting(attempt: machine.attempt)
        case .waiting:
            return .waiting(attempt: machine.attempt, retryAt: retryAt ?? clock.epochMilliseconds)
        case .connected:
            guard let link else { return .connecting(attempt: machine.attempt) }
            return .connected(server: link.server, since: link.connectedAt, tls: link.connection.tlsSession)
        case .paused:
            return .paused
        case .suspended:
            return .suspended
        case .stopped(let termination):
            return .stopped(termination)
        }
    }

    /// Hands `kind` to the engine's hub with the snapshot after it.
    func publish(_ kind: SessionEvent.Kind) {
        engine.hub.publish(kind, snapshot())
    }
}
