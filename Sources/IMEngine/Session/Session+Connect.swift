import IMProtocol

extension Session {
    /// Connects: reads the token, opens the local database, then connects and keeps connecting.
    ///
    /// `databaseOpened` runs once the database is open (or could not be: 33002), before
    /// `completion`. `completion` runs exactly once: with the user id when the server accepts,
    /// or with the error that ended the call (33001, 33002, 33003, already connecting, or a
    /// no-retry status such as tokenIncorrect or timeout). Later endings are reported to status
    /// handlers only. Both run on the engine's callback executor.
    public func connect(
        databaseOpened: (@Sendable (_ isRecreated: Bool, _ error: EngineError?) -> Void)? = nil,
        completion: (@Sendable (_ userID: String?, _ error: EngineError?) -> Void)?
    ) {
        let callbacks = engine.runtime?.callbacks ?? SessionEngine.fallbackCallbacks
        let call = ConnectCall(callbacks: callbacks, databaseOpened: databaseOpened) { userID, error in
            completion?(userID, error)
        }
        guard let runtime = begin(call) else { return }
        Task { await self.start(call, runtime: runtime) }
    }

    /// Connects and returns the user id once the server accepts; throws what ended the call.
    ///
    /// Cancelling the waiting task stops the wait, not the connection: use `disconnect`.
    public func connect(
        databaseOpened: (@Sendable (_ isRecreated: Bool, _ error: EngineError?) -> Void)? = nil
    ) async throws(EngineError) -> String {
        let (results, continuation) = AsyncStream<Result<String, EngineError>>.makeStream()
        connect(databaseOpened: databaseOpened) { userID, error in
            continuation.yield(userID.map { .success($0) } ?? .failure(error ?? .notConnected("no user id")))
            continuation.finish()
        }
        for await result in results { return try result.get() }
        throw .notConnected("stopped waiting: the task was cancelled")
    }

    /// Replaces the token the next attempts log in with (after tokenIncorrect, say, then `connect`).
    ///
    /// The next `connect` reads the user id from it again, unless the parameters give one.
    public func updateToken(_ token: String) throws(EngineError) {
        guard !token.isEmpty, token.utf8.count <= TokenClaims.maxTokenLength else {
            throw .invalidParameter("the token is empty or longer than \(TokenClaims.maxTokenLength) bytes")
        }
        self.token.replace(with: token)
    }

    /// Disconnects on purpose: no more attempts, status signOut.
    ///
    /// With `disablePush`, the final DISCONNECT asks for no push notifications to this device
    /// until it logs in again (`im-push` `off`, as the SDK's disconnect(disablePush:)); its
    /// messages are still kept for the next connection. A pending connect call ends with signOut.
    public func disconnect(disablePush: Bool = false) {
        // A closed session stays closed: signing out again would bring its state back.
        guard !isClosed else { return }
        if machine.isPreparing, let call = call.take() {
            call.finish(.failure(.terminated(.signedOut)))
        }
        if let link {
            link.send(.disconnect(SessionPackets.disconnect(disablePush: disablePush)), at: clock.now)
        }
        statusDetail = disablePush ? "disconnected by the app, push disabled" : "disconnected by the app"
        perform(machine.disconnect())
    }

    /// Disconnects if active, closes the database and leaves the engine; the session is done.
    public func close() async {
        guard !isClosed else { return }
        if isActive || machine.isPreparing { disconnect() }
        _ = machine.close()
        activity.stop()?.close()
        await closeDatabase()
        publish(.closed)
        engine.forget(self)
    }

    /// Checks that a connect call may start and marks it under way; nil after ending it.
    private func begin(_ call: ConnectCall) -> EngineRuntime? {
        guard let runtime = engine.runtime else {
            call.finish(.failure(.notInitialized))
            return nil
        }
        guard !isClosed else {
            call.finish(.failure(.notConnected("the session is closed; make a new one")))
            return nil
        }
        guard !machine.isPreparing, !isActive else {
            call.finish(.failure(.alreadyActive(machine.isPreparing ? "connecting" : machine.phase.name)))
            return nil
        }
        do {
            try parameters.validate()
        } catch {
            call.finish(.failure(error))
            return nil
        }
        if self.runtime !== runtime {
            takeover = TakeoverSuspicion(limit: runtime.configuration.takeoverLimit)
            placement = (runtime, runtime.group.next())
        }
        do {
            try machine.prepare()
        } catch {
            call.finish(.failure(.alreadyActive("\(machine.phase.name)")))
            return nil
        }
        self.call = call
        token.settle()
        publish(.started)
        return runtime
    }

    /// Prepares (token, database), then hands the call to the policy.
    private func start(_ call: ConnectCall, runtime: EngineRuntime) async {
        // The engine's clock, virtual in tests: preparing takes none of a virtual timeout.
        let started = clock.now
        let prepared = await prepare(call, runtime: runtime, started: started)
        // Over, whether or not the call still is (a disconnect ends it at once): a new one may start.
        machine.preparationEnded()
        guard let prepared, self.call === call else { return }
        if let token = prepared.token {
            self.token.replace(with: token)
        } else {
            // The source did not answer: the first attempt asks it again, and a source that stays
            // silent is retried on the schedule like an unreachable server.
            token.expire()
            statusDetail = prepared.unavailable
            lastRetryableFailure = prepared.unavailable
        }
        // The call's timeout bounds the whole connect: what preparing took is spent.
        let timeout = parameters.connectTimeout.map { max($0 - (clock.now - started), .milliseconds(1)) }
        do {
            let actions = try machine.connect(timeout: timeout)
            statusDetail = "connect called"
            perform(actions)
        } catch {
            self.call = nil
            call.finish(.failure(.alreadyActive(machine.phase.name)))
        }
    }

    /// What preparing found: the token, or why its source did not answer (retried on the schedule).
    private struct Prepared {
        var token: String?
        var unavailable = ""
    }

    /// Gets the token, names and opens the database; nil after ending the call.
    private func prepare(_ call: ConnectCall, runtime: EngineRuntime, started: Duration) async -> Prepared? {
        var prepared = Prepared()
        if let known = token.known ?? parameters.token {
            prepared.token = known
        } else if let source = parameters.tokenSource, let loop {
            do {
                let limit = runtime.configuration.tokenFetchTimeout
                let timeout = parameters.connectTimeout.map { min($0, limit) } ?? limit
                prepared.token = try await TokenFetcher.fetch(source, timeout: timeout, loop: loop)
            } catch {
                if let termination = error.condition.termination(detail: "\(error)") {
                    return endCall(call, .terminated(termination))
                }
                if let timeout = parameters.connectTimeout, clock.now - started >= timeout {
                    var timedOut = SessionTermination.timedOut
                    timedOut.detail += "; last attempt: \(error)"
                    return endCall(call, .terminated(timedOut))
                }
                prepared.unavailable = "\(error)"
            }
        } else {
            return endCall(call, .invalidParameter("no token and no token source given"))
        }
        guard self.call === call else { return nil }

        let userID: String
        if let given = parameters.userID {
            userID = given
        } else if let token = prepared.token {
            do {
                userID = try Self.userID(namedBy: token)
            } catch {
                return endCall(call, error)
            }
        } else {
            // The source did not answer and only a token can name the user: the attempts ask
            // it again on the schedule, and the first token opens the database before dialling.
            return prepared
        }
        do {
            try await openDatabase(userID: userID, reportingTo: call, runtime: runtime)
            return prepared
        } catch {
            // Closed while the file opened: its connect call is over and it publishes no more.
            guard !isClosed else { return nil }
            return endCall(call, error)
        }
    }

    /// Ends a connect call that failed before the policy started, unless it was ended already.
    private func endCall(_ call: ConnectCall, _ error: EngineError) -> Prepared? {
        guard self.call === call else { return nil }
        self.call = nil
        let termination: SessionTermination? = if case .terminated(let termination) = error { termination } else { nil }
        statusDetail = termination?.detail ?? ""
        perform(machine.preparationFailed(termination))
        call.finish(.failure(error))
        return nil
    }
}
