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
        self.token = token
        needsFreshToken = false
    }

    /// Disconnects on purpose: no more attempts, status signOut.
    ///
    /// With `disablePush`, the final DISCONNECT asks for no push notifications to this device
    /// until it logs in again (`im-push` `off`, as the SDK's disconnect(disablePush:)); its
    /// messages are still kept for the next connection. A pending connect call ends with signOut.
    public func disconnect(disablePush: Bool = false) {
        if isPreparing, let call = call.take() {
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
        if isActive || isPreparing { disconnect() }
        isClosed = true
        for task in timers.values { task.cancel() }
        timers = [:]
        attempt.take()?.task.cancel()
        if let link = link.take() { link.close() }
        statusStreams.finishAll()
        messageStreams.finishAll()
        reportStreams.finishAll()
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
        guard !isPreparing, !isActive else {
            call.finish(.failure(.alreadyActive(isPreparing ? "connecting" : "\(machine.phase)")))
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
            self.runtime = runtime
            clock = runtime.clock
            loop = runtime.group.next()
        }
        self.call = call
        tokenRefreshed = false
        needsFreshToken = false
        // Until preparation ends, even after a disconnect cancelled the call, other connect
        // calls are refused: two preparations would race for the database.
        isPreparing = true
        return runtime
    }

    /// Prepares (token, database), then hands the call to the policy.
    private func start(_ call: ConnectCall, runtime: EngineRuntime) async {
        // The engine's clock, virtual in tests: preparing takes none of a virtual timeout.
        let started = clock.now
        let token = await prepare(call, runtime: runtime)
        isPreparing = false
        guard let token, self.call === call else { return }
        self.token = token
        // The call's timeout bounds the whole connect: what preparing took is spent.
        let timeout = parameters.timeout.map { max($0 - (clock.now - started), .milliseconds(1)) }
        do {
            let actions = try machine.connect(timeout: timeout)
            statusDetail = "connect called"
            perform(actions)
        } catch {
            self.call = nil
            call.finish(.failure(.alreadyActive("\(machine.phase)")))
        }
    }

    /// Gets the token, names and opens the database; the token, or nil after ending the call.
    private func prepare(_ call: ConnectCall, runtime: EngineRuntime) async -> String? {
        let token: String
        if let known = self.token ?? parameters.token {
            token = known
        } else if let source = parameters.tokenSource {
            do {
                let limit = runtime.configuration.tokenFetchTimeout
                token = try await TokenFetcher.fetch(source, timeout: parameters.timeout.map { min($0, limit) } ?? limit)
            } catch {
                return endCall(call, .terminated(SessionTermination(.tokenIncorrect, .tokenIncorrect, detail: "\(error)")))
            }
        } else {
            return endCall(call, .invalidParameter("no token and no token source given"))
        }
        guard self.call === call else { return nil }

        let userID: String
        if let given = parameters.userID {
            userID = given
        } else {
            do {
                userID = try TokenClaims.read(token).userID
            } catch {
                let failure = EngineError.database(
                    "cannot name the local database: the token does not say its user (\(error)); give the user id")
                call.reportDatabase(isRecreated: false, error: failure)
                return endCall(call, failure)
            }
        }
        do {
            let isRecreated = try await openDatabase(userID: userID, runtime: runtime)
            publish(.databaseOpened(isRecreated: isRecreated, movedAside: database?.movedAside ?? [], error: nil))
            call.reportDatabase(isRecreated: isRecreated, error: nil)
            return token
        } catch {
            publish(.databaseOpened(isRecreated: false, movedAside: [], error: error))
            call.reportDatabase(isRecreated: false, error: error)
            return endCall(call, error)
        }
    }

    /// Ends a connect call that failed before the policy started, unless it was ended already.
    private func endCall(_ call: ConnectCall, _ error: EngineError) -> String? {
        guard self.call === call else { return nil }
        self.call = nil
        if case .terminated(let termination) = error { report(termination.status, termination.code, detail: termination.detail) }
        call.finish(.failure(error))
        return nil
    }

    /// Opens `userID`'s database unless it is the one open; returns whether it was recreated.
    private func openDatabase(userID: String, runtime: EngineRuntime) async throws(EngineError) -> Bool {
        if database != nil && localUserID == userID { return false }
        await closeDatabase()
        guard IMIdentifier.isValidUserID(userID) else {
            throw .database(SessionDatabaseError.invalidUserID(userID).description)
        }
        let directory = parameters.dataDirectory ?? runtime.configuration.dataDirectory
        let appKey = runtime.configuration.appKey
        let path = SessionDatabase.path(directory: directory, appKey: appKey, userID: userID)
        guard runtime.claimDatabase(path) else {
            throw .database("\(path) is in use by another session; give each device of a user its own data directory")
        }
        do {
            let (database, isRecreated) = try await SessionDatabase.open(
                directory: directory, appKey: appKey, userID: userID, threads: runtime.databaseThreads)
            self.database = database
            databasePath = path
            localUserID = userID
            return isRecreated
        } catch {
            runtime.releaseDatabase(path)
            throw .database(error.description)
        }
    }

    func closeDatabase() async {
        await database.take()?.close()
        if let path = databasePath.take() { runtime?.releaseDatabase(path) }
        localUserID = nil
    }
}
