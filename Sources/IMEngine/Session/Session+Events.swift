extension Session {
    /// Calls `handler` (on the callback executor) for every status change, in the hub's order;
    /// replaces a handler with the same identifier.
    public func addStatusHandler(identifier: String, _ handler: @escaping @Sendable (StatusChange) -> Void) {
        addHandler("status " + identifier) { if case .status(let change) = $0 { handler(change) } }
    }

    public func removeStatusHandler(identifier: String) {
        handlers.removeValue(forKey: "status " + identifier)?.cancel()
    }

    /// Calls `handler` (on the callback executor) for every new message received and stored.
    public func addMessageHandler(identifier: String, _ handler: @escaping @Sendable (StoredMessage) -> Void) {
        addHandler("message " + identifier) { if case .message(let message) = $0 { handler(message) } }
    }

    public func removeMessageHandler(identifier: String) {
        handlers.removeValue(forKey: "message " + identifier)?.cancel()
    }

    /// Status changes from now on; the stream ends when the session closes.
    public func statusChanges() -> AsyncStream<StatusChange> {
        events { if case .status(let change) = $0 { change } else { nil } }
    }

    /// New messages received from now on, each after it was stored.
    public func receivedMessages() -> AsyncStream<StoredMessage> {
        events { if case .message(let message) = $0 { message } else { nil } }
    }

    /// The server's answers (PUBACK) to sent messages, from now on.
    public func sendReports() -> AsyncStream<SendReport> {
        events { if case .sendReport(let report) = $0 { report } else { nil } }
    }

    /// A view of this session's events in the hub: the one delivery path, so a handler or a
    /// stream sees what every front end sees, in the same order. It ends when the session closes.
    private func events<Element: Sendable>(_ pick: @escaping @Sendable (SessionEvent.Kind) -> Element?) -> AsyncStream<Element> {
        guard !isClosed else { return AsyncStream { $0.finish() } }
        // `AsyncStream(unfolding:)` calls `onCancel` for a cancelled reader only: a reader that
        // stops at the element it wanted and drops the stream would leave the subscription
        // open, fed at every later event of the session. The lease ends it with the stream.
        let lease = SubscriptionLease(engine.hub.subscribe(session: id))
        return AsyncStream(unfolding: {
            while let event = await lease.subscription.next() {
                if case .closed = event.kind { break }
                if let element = pick(event.kind) { return element }
            }
            lease.subscription.cancel()
            return nil
        }, onCancel: { lease.subscription.cancel() })
    }

    private func addHandler(_ key: String, _ deliver: @escaping @Sendable (SessionEvent.Kind) -> Void) {
        handlers.removeValue(forKey: key)?.cancel()
        guard !isClosed else { return }
        let subscription = engine.hub.subscribe(session: id)
        let callbacks = runtime?.callbacks ?? SessionEngine.fallbackCallbacks
        handlers[key] = subscription
        Task.detached {
            while let event = await subscription.next() {
                if case .closed = event.kind { break }
                callbacks.run { deliver(event.kind) }
            }
            subscription.cancel()
        }
    }

    /// Records a status change: history, connection log, and the hub.
    func report(_ status: ConnectionStatus, _ code: ConnectErrorCode?, detail: String) {
        let change = StatusChange(at: clock.epochMilliseconds, status: status, code: code, detail: detail)
        history.append(change)
        changeCount += 1
        if history.count > Self.historyLimit { history.removeFirst(history.count - Self.historyLimit) }
        local?.database.appendLogLater(change)
        publish(.status(change))
    }
}
