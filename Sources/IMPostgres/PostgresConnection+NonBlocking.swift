import CPQ

/// A statement sent in non-blocking mode, until its answer is read.
struct InFlight {
    enum Stage {
        /// Its statement is being prepared; the statement itself goes once that is answered.
        case preparing(name: String, sql: String, parameters: [PostgresValue])
        case executing
    }

    var stage: Stage
    /// The statement's result, or the error of the first result that failed.
    var answer: Result<PostgresResult, PostgresError>?
}

/// Statements sent and answered without blocking, for an owner that waits on `socket` itself
/// (an event loop): `send(prepared:_:)`, then `flush()` while it says bytes are left and the
/// socket is writable, then `receive()` each time the socket is readable until it answers.
///
/// Why: a pooled connection's thread costs every statement two threads woken (the pool's
/// and the caller's) and a hand-over each way; on two cores at 1,000 messages/s that was a
/// sixth of a message's wake-ups (issue 42).
/// One statement at a time; the blocking calls must not be used while one is in flight.
extension PostgresConnection {
    /// The connection's socket, -1 once closed. It may change only while connecting.
    public var socket: Int32 { handle.map(PQsocket) ?? -1 }

    /// Whether a statement sent with `send(prepared:_:)` is waiting for its answer.
    public var isAwaitingAnswer: Bool { inFlight != nil }

    /// Puts the connection in non-blocking mode: sends no longer wait for the socket.
    public func makeNonBlocking() throws(PostgresError) {
        guard PQsetnonblocking(try open(), 1) == 0 else { throw lost() }
    }

    /// Sends `sql` with `parameters` as `execute(prepared:_:)` runs it (preparing it first
    /// the first time it is sent here); true when every byte went out, false when `flush()`
    /// must be called again once the socket is writable.
    public func send(prepared sql: String, _ parameters: [PostgresValue]) throws(PostgresError) -> Bool {
        precondition(inFlight == nil, "PostgresConnection: a statement is already in flight")
        let handle = try open()
        if let name = prepared[sql] {
            try sendExecute(name, parameters, on: handle)
            inFlight = InFlight(stage: .executing)
        } else {
            let name = preparedName
            let types = parameters.map { EncodedParameter.type(of: $0) }
            guard PQsendPrepare(handle, name, sql, Int32(parameters.count), types) == 1 else { throw lost() }
            inFlight = InFlight(stage: .preparing(name: name, sql: sql, parameters: parameters))
        }
        return try flush()
    }

    /// Writes what is left of the statement; true when nothing is left.
    public func flush() throws(PostgresError) -> Bool {
        switch PQflush(try open()) {
        case 0: return true
        case 1: return false
        default: throw lost()
        }
    }

    /// Reads what the server sent; the statement's result once it is whole, nil while more is to
    /// come (then call `flush()`: a statement prepared first is sent once its preparation is
    /// answered). Throws the statement's error once it is whole, a connection error at once.
    public func receive() throws(PostgresError) -> PostgresResult? {
        let handle = try open()
        guard PQconsumeInput(handle) == 1 else { throw abandon() }
        while inFlight != nil, PQisBusy(handle) == 0 {
            guard let result = PQgetResult(handle) else {
                if let answer = try finishStage(on: handle) { return try answer.get() }
                continue
            }
            defer { PQclear(result) }
            if inFlight?.answer == nil {
                do throws(PostgresError) {
                    try check(result)
                    inFlight?.answer = .success(Self.read(result))
                } catch {
                    inFlight?.answer = .failure(error)
                }
            }
        }
        guard PQstatus(handle) == CONNECTION_OK else { throw abandon() }
        return nil
    }

    /// The stage's results are all read: the answer, or nil when the statement itself was sent.
    private func finishStage(on handle: OpaquePointer) throws(PostgresError) -> Result<PostgresResult, PostgresError>? {
        guard let flight = inFlight else { return nil }
        switch flight.stage {
        case .executing:
            inFlight = nil
            return flight.answer ?? .failure(PostgresError(kind: .query, message: "the statement returned no result"))
        case .preparing(let name, let sql, let parameters):
            if case .failure(let error)? = flight.answer {
                inFlight = nil
                return .failure(error)
            }
            prepared[sql] = name
            try sendExecute(name, parameters, on: handle)
            inFlight = InFlight(stage: .executing)
            return nil
        }
    }

    private func sendExecute(_ name: String, _ parameters: [PostgresValue], on handle: OpaquePointer) throws(PostgresError) {
        let encoded = parameters.map(EncodedParameter.init)
        defer { encoded.forEach { $0.free() } }
        let values = encoded.map { UnsafePointer($0.pointer) }
        guard PQsendQueryPrepared(handle, name, Int32(parameters.count), values, encoded.map(\.length), encoded.map(\.format), 0) == 1
        else { throw lost() }
    }

    /// The connection's error, as a connection error.
    private func lost() -> PostgresError {
        PostgresError(kind: .connection, message: handle.map { Self.trimmed(PQerrorMessage($0)) } ?? "connection closed")
    }

    /// Forgets the statement in flight and returns the connection's error: the connection is
    /// lost and its owner closes it.
    private func abandon() -> PostgresError {
        inFlight = nil
        return lost()
    }
}
