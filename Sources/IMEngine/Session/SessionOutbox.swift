import IMStore
import IMTransport
import Synchronization

/// A session's messages on their way out: stored, published and acknowledged on the session's
/// event loop, with no task in between.
///
/// A send used to go caller -> actor -> database thread -> actor -> loop, and each PUBACK loop
/// -> reader task -> actor, waking a thread at every step. Now a send crosses to the loop
/// once: the loop stores the sends of one turn in one transaction (itself when the database
/// is idle, else through the database's queue), publishes them and answers their callers; the
/// PUBACKs come from the session's inbox on the same loop (`SessionInbox`). Every PUBLISH is
/// written on the loop, so messages leave in the order they were stored.
///
/// The state sits behind a mutex because the actor also uses it: it attaches and detaches
/// connections and reserves the SUBSCRIBE's packet identifier. One outbox per open database;
/// packet identifiers outlive connections, so a resend carries the same one.
final class SessionOutbox: Sendable {
    struct State {
        var window = OutgoingWindow()
        /// The live connection's share of the messages; nil between connections.
        var link: OutboxLink?
        var sends = PendingBatch<WaitingSend>()
        var isClosed = false

        /// Runs `body` with the live connection's link and the window; nil without a live
        /// connection, or when it is not `connection`.
        ///
        /// The link is taken out and put back, so `body` changes it in place: a copy would
        /// copy its sets at every message.
        mutating func withLink<Result>(
            on connection: Connection? = nil, _ body: (inout OutboxLink, inout OutgoingWindow) -> Result
        ) -> Result? {
            guard var link = link.take() else { return nil }
            defer { self.link = link }
            if let connection, link.connection !== connection { return nil }
            return body(&link, &window)
        }
    }

    let state = Mutex(State())
    let loop: EventLoop
    let database: SessionDatabase
    let hub: SessionEventHub
    let session: SessionID

    init(database: SessionDatabase, loop: EventLoop, hub: SessionEventHub, session: SessionID) {
        self.database = database
        self.loop = loop
        self.hub = hub
        self.session = session
    }

    // MARK: The actor's side

    /// `connection` is the session's live one from now on (after its CONNACK).
    func attach(_ connection: Connection, receiveMaximum: Int, maximumPacketSize: Int?) {
        // The outbox writes PUBLISHes from its loop: a connection of another loop would be
        // written from the wrong thread.
        precondition(connection.loop === loop, "a session's connections live on its loop")
        state.withLock {
            $0.link = OutboxLink(connection: connection, receiveMaximum: receiveMaximum, maximumPacketSize: maximumPacketSize)
        }
    }

    /// `connection` ended: what it had in flight goes out again on the next one.
    func detach(_ connection: Connection) {
        state.withLock { state in
            if state.link?.connection === connection { state.link = nil }
        }
    }

    /// A packet identifier for a packet that is not a message (SUBSCRIBE); nil when all are in use.
    func reserveID() -> UInt16? {
        state.withLock { $0.window.reserve() }
    }

    func releaseID(_ id: UInt16) {
        state.withLock { $0.window.release(id) }
    }

    /// Publishes `messages` (stored before `connection` came, oldest first) on `connection` if
    /// it is still the live one, then what was sent meanwhile; those it already carries are
    /// skipped. Until this is called a connection publishes nothing: call it with none when
    /// the older messages cannot be read.
    func resend(_ messages: [StoredMessage], on connection: Connection) {
        loop.execute { [self] in
            let sentMeanwhile = state.withLock { $0.withLink(on: connection) { link, _ in link.resent() } }
            guard let sentMeanwhile else { return }
            publishHere(messages + sentMeanwhile)
        }
    }

    /// The database is closing: sends not yet stored fail, and later ones are refused.
    func close() {
        let waiting = state.withLock { state -> [WaitingSend] in
            state.isClosed = true
            return state.sends.takeWaiting()
        }
        Self.fail(waiting, EngineError.notConnected("the session closed its database"))
    }

    // MARK: Sends

    /// Stores `send` with the sends of the same loop turn, publishes it when connected (else it
    /// waits in the database for the next connection) and then answers its caller.
    func submit(_ send: WaitingSend) {
        let first = state.withLock { state -> Bool? in
            guard !state.isClosed else { return nil }
            state.sends.add(send)
            return state.sends.waiting.count == 1 && !state.sends.isBusy
        }
        guard let first else {
            return Self.fail([send], EngineError.notConnected("the session closed its database"))
        }
        guard first else { return }
        // A sender on the loop already (a task that prefers it, `Session.taskExecutor`) needs
        // no hand-over: the store joins this turn's end without waking the loop again.
        if loop.inEventLoop { return loop.executeAtEndOfTurn { self.storeSends() } }
        let queued = loop.execute { [self] in loop.executeAtEndOfTurn { self.storeSends() } }
        if !queued { abandonSends() }
    }

    /// Stores the waiting sends in one transaction; sends that come meanwhile wait for the next.
    private func storeSends() {
        guard let batch = state.withLock({ $0.sends.next() }) else { return }
        let messages = batch.map(\.message)
        if let stored = database.enqueueOutgoingHere(messages) {
            return publishAndAnswer(batch, .success(stored))
        }
        database.enqueueOutgoing(messages) { [self] result in
            let queued = loop.execute { self.publishAndAnswer(batch, result) }
            // The loop is gone (the engine shut down): answer here, nothing can be published.
            if !queued {
                Self.answer(batch, result)
                abandonSends()
            }
        }
    }

    /// On the loop: publishes what was stored, answers the callers, and starts the next batch.
    private func publishAndAnswer(_ batch: [WaitingSend], _ result: Result<[StoredMessage], any Error>) {
        if case .success(let stored) = result { publishHere(stored) }
        Self.answer(batch, result)
        state.withLock { $0.sends.finish() }
        storeSends()
    }

    /// Fails what waits when the loop can no longer run the outbox.
    private func abandonSends() {
        let waiting = state.withLock { state -> [WaitingSend] in
            state.sends.finish()
            return state.sends.takeWaiting()
        }
        Self.fail(waiting, EngineError.notConnected("the engine shut down"))
    }

    private static func answer(_ batch: [WaitingSend], _ result: Result<[StoredMessage], any Error>) {
        switch result {
        case .success(let stored):
            for (waiting, message) in zip(batch, stored) { waiting.continuation.resume(returning: message) }
        case .failure(let error):
            fail(batch, error)
        }
    }

    private static func fail(_ batch: [WaitingSend], _ error: any Error) {
        for waiting in batch { waiting.continuation.resume(throwing: error) }
    }
}
