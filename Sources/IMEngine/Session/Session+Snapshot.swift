extension Session {
    /// Everything a front end shows of this session, as of now, in one value.
    public func snapshot() -> SessionSnapshot {
        SessionSnapshot(
            id: id, label: parameters.label, state: state, status: history.last?.status ?? .unknown,
            lastChange: history.last, changeCount: changeCount, userID: userID, databaseFile: local?.path)
    }

    /// The session's state: the policy's phase, which carries its data.
    var state: SessionState { machine.phase }

    /// Hands `kind` to the engine's hub with the snapshot after it.
    func publish(_ kind: SessionEvent.Kind) {
        engine.hub.publish(kind, snapshot())
    }
}
