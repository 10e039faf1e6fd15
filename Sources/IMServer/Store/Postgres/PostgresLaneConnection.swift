import IMPostgres
import IMThreads
import IMTransport
#if canImport(Glibc)
import Glibc
#endif

/// The message lane's own connection to PostgreSQL, driven from the lane's loop without
/// blocking it: a statement goes out and its answer is read as the loop finds the socket ready.
///
/// Why not a pooled connection: a pool thread between the loop and PostgreSQL woke two more
/// threads for every job (the pool's, then the loop's again through its queue), 2 of a
/// cross-node message's 9.3 wake-ups and 133 of its 1,264 us of CPU at 1,000 messages/s on
/// two cores, where each wake-up waits its turn for a core (issue 42).
///
/// It connects when first asked, on a thread of its own (libpq's connect and the session's
/// settings block), and again once the connection is lost. An idle connection the server
/// ends (a restart, `pg_terminate_backend`) is dropped as soon as the loop sees its socket
/// readable, so that the next statement does not meet it. One statement at a time; it does
/// not retry: a statement whose connection is lost is answered with the `.connection` error
/// and the caller decides (`PostgresLaneBatch`). Use only on the loop it was made for.
final class PostgresLaneConnection {
    typealias Answer = (Result<PostgresResult, PostgresError>) -> Void

    private let loop: EventLoop
    private let conninfo: String
    private let setup: String?
    private var connection: PostgresConnection?
    private var watch: DescriptorWatch?
    /// The statement waiting for a connection or for its answer, and who waits for it.
    private var statement: (sql: String, parameters: [PostgresValue], answer: Answer)?
    private var connecting = false
    private var closed = false

    init(conninfo: String, setup: String?, loop: EventLoop) {
        self.conninfo = conninfo
        self.setup = setup
        self.loop = loop
    }

    /// Runs `sql` (prepared on the connection the first time) and hands its result to `answer`
    /// on the loop; connects first when there is no connection.
    func execute(prepared sql: String, _ parameters: [PostgresValue], then answer: @escaping Answer) {
        precondition(statement == nil, "PostgresLaneConnection: one statement at a time")
        guard !closed else { return answer(.failure(PostgresError(kind: .connection, message: "connection closed"))) }
        statement = (sql, parameters, answer)
        if connection != nil { send() } else { connect() }
    }

    /// Closes the connection once the statement under way is answered; later statements fail.
    func close() {
        closed = true
        if statement == nil { drop(nil) }
    }

    private func send() {
        guard let connection, let (sql, parameters, _) = statement else { return }
        do throws(PostgresError) {
            watch?.watchesWrites = try !connection.send(prepared: sql, parameters)
        } catch {
            drop(error)
        }
    }

    private func connect() {
        guard !connecting else { return }
        connecting = true
        let (conninfo, setup, loop) = (self.conninfo, self.setup, self.loop)
        let connected = LoopBound(confined: { [weak self] (result: Result<PostgresConnection, PostgresError>) in
            self?.connected(result)
        }, loop: loop)
        pthread_detach(SystemThread.spawn(name: "imsh-pg-lane") {
            let result = Result { () throws(PostgresError) -> PostgresConnection in
                let connection = try PostgresConnection.connect(conninfo, setup: setup)
                try connection.makeNonBlocking()
                return connection
            }
            // A loop that has stopped drops it here, which closes it.
            let made = LoopBound(result, loop: loop)
            _ = loop.execute { connected.value(made.value) }
        })
    }

    private func connected(_ result: Result<PostgresConnection, PostgresError>) {
        connecting = false
        do throws(PostgresError) {
            let made = try result.get()
            guard !closed else {
                made.close()
                throw PostgresError(kind: .connection, message: "connection closed")
            }
            do {
                watch = try DescriptorWatch(made.socket, on: loop) { [weak self] event in self?.handle(event) }
            } catch {
                made.close()
                throw PostgresError(kind: .connection, message: "cannot watch the connection's socket: \(error)")
            }
            connection = made
            send()
        } catch {
            finish(.failure(error))
        }
    }

    private func handle(_ event: DescriptorWatch.Event) {
        guard let connection else { return }
        switch event {
        case .loopStopped:
            watch = nil
            connection.close()
            self.connection = nil
        case .writable:
            do throws(PostgresError) {
                watch?.watchesWrites = try !connection.flush()
            } catch {
                drop(error)
            }
        case .readable where statement == nil:
            // Unasked, while idle: most likely the server ending the session.
            if !connection.isHealthy { drop(nil) }
        case .readable:
            do throws(PostgresError) {
                if let result = try connection.receive() { return finish(.success(result)) }
                watch?.watchesWrites = try !connection.flush()
            } catch where error.kind == .query {
                finish(.failure(error))
            } catch {
                drop(error)
            }
        }
    }

    /// Answers the statement under way.
    private func finish(_ result: Result<PostgresResult, PostgresError>) {
        let answer = statement?.answer
        statement = nil
        if closed { drop(nil) }
        answer?(result)
    }

    /// Closes the connection (lost or no longer wanted) and fails the statement under way with `error`.
    private func drop(_ error: PostgresError?) {
        watch?.cancel()
        watch = nil
        connection?.close()
        connection = nil
        if statement != nil { finish(.failure(error ?? PostgresError(kind: .connection, message: "connection lost"))) }
    }
}
