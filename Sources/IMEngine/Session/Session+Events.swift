extension Session {
    /// Calls `handler` (on the callback executor) for every status change; replaces a handler
    /// with the same identifier.
    public func addStatusHandler(identifier: String, _ handler: @escaping @Sendable (StatusChange) -> Void) {
        statusHandlers[identifier] = handler
    }

    public func removeStatusHandler(identifier: String) {
        statusHandlers[identifier] = nil
    }

    /// Calls `handler` (on the callback executor) for every new message received and stored.
    public func addMessageHandler(identifier: String, _ handler: @escaping @Sendable (StoredMessage) -> Void) {
        messageHandlers[identifier] = handler
    }

    public func removeMessageHandler(identifier: String) {
        messageHandlers[identifier] = nil
    }

    /// Status changes from now on; the stream ends when the session closes.
    public func statusChanges() -> AsyncStream<StatusChange> {
        statusStreams.add(buffering: .unbounded) { key in Task { await self.endStream(.status, key) } }
    }

    /// New messages received from now on, each after it was stored.
    public func receivedMessages() -> AsyncStream<StoredMessage> {
        messageStreams.add(buffering: .unbounded) { key in Task { await self.endStream(.messages, key) } }
    }

    /// The server's answers (PUBACK) to sent messages, from now on.
    public func sendReports() -> AsyncStream<SendReport> {
        reportStreams.add(buffering: .unbounded) { key in Task { await self.endStream(.reports, key) } }
    }

    private enum StreamKind { case status, messages, reports }

    private func endStream(_ kind: StreamKind, _ key: UInt64) {
        switch kind {
        case .status: statusStreams.remove(key)
        case .messages: messageStreams.remove(key)
        case .reports: reportStreams.remove(key)
        }
    }

    /// Records a status change: history, connection log, handlers, streams.
    func report(_ status: ConnectionStatus, _ code: ConnectErrorCode?, detail: String) {
        let change = StatusChange(at: clock.epochMilliseconds, status: status, code: code, detail: detail)
        history.append(change)
        changeCount += 1
        if history.count > Self.historyLimit { history.removeFirst(history.count - Self.historyLimit) }
        database?.appendLogLater(change)
        publish(.status(change))
        statusStreams.yield(change)
        let callbacks = runtime?.callbacks ?? SessionEngine.fallbackCallbacks
        for handler in statusHandlers.values {
            callbacks.run { handler(change) }
        }
    }
}
