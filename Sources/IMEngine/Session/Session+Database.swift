import IMProtocol

/// The local database: named by the user id (given, or read from the token), opened before
/// the first connection and kept while the session lives.
extension Session {
    /// The user a token names, for a session given no user id. A token that names none is
    /// the token's fault, refused as the server would refuse it (31004), not the database's.
    static func userID(namedBy token: String) throws(EngineError) -> String {
        do {
            return try TokenClaims.read(token).userID
        } catch {
            throw .terminated(SessionTermination(
                .tokenIncorrect, .tokenIncorrect,
                detail: "the token does not name its user (\(error)); the local database is named by it (or give the user id)"))
        }
    }

    /// Opens `userID`'s database and tells the event stream and `call` how it went (once the
    /// session is closed, it tells nothing).
    func openDatabase(userID: String, reportingTo call: ConnectCall?, runtime: EngineRuntime) async throws(EngineError) {
        do {
            let isRecreated = try await openDatabase(userID: userID, runtime: runtime)
            publish(.databaseOpened(isRecreated: isRecreated, movedAside: local?.database.movedAside ?? [], error: nil))
            call?.reportDatabase(isRecreated: isRecreated, error: nil)
        } catch {
            if !isClosed {
                publish(.databaseOpened(isRecreated: false, movedAside: [], error: error))
                call?.reportDatabase(isRecreated: false, error: error)
            }
            throw error
        }
    }

    /// Opens `userID`'s database unless it is the one open; returns whether it was recreated.
    private func openDatabase(userID: String, runtime: EngineRuntime) async throws(EngineError) -> Bool {
        if local?.userID == userID { return false }
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
        let database: SessionDatabase, isRecreated: Bool
        do {
            (database, isRecreated) = try await SessionDatabase.open(
                directory: directory, appKey: appKey, userID: userID, threads: runtime.databaseThreads,
                idleClosing: runtime.databaseIdleClosing)
        } catch {
            runtime.releaseDatabase(path)
            throw .database(error.description)
        }
        // `close()` came while the file opened and found nothing to close: this is the file's
        // last owner, and the path must be free for the user's next session.
        guard !isClosed else {
            await database.close()
            runtime.releaseDatabase(path)
            throw .terminated(.signedOut)
        }
        let outbox = SessionOutbox(database: database, loop: loop ?? runtime.group.next(), hub: engine.hub, session: id)
        local = OpenDatabase(userID: userID, path: path, outbox: outbox)
        return isRecreated
    }

    /// Fails the sends not yet stored, closes the file and gives its path back.
    func closeDatabase() async {
        guard let local = local.take() else { return }
        local.outbox.close()
        await local.database.close()
        runtime?.releaseDatabase(local.path)
    }
}
