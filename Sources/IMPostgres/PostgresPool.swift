import Dispatch
import IMThreads
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A bounded pool of `size` threads, each owning one connection, opened when first needed and
/// opened again when found broken. Work waits in a FIFO queue while every thread is busy.
///
/// The thread idle the shortest takes the next job: at light load one connection does
/// nearly all the work, so its PostgreSQL backend keeps its caches warm and one process is
/// woken, not a different one each time. Handing jobs round the threads instead cost
/// PostgreSQL 13 % more CPU a cross-node message at 300 messages/s and 5 % more at 1,000
/// (1,182 against 1,046 and 852 against 810 us, three runs each; BENCHMARKS.md, issue 42).
///
/// The blocking libpq calls run on the pool's threads, never on Swift's cooperative pool. The
/// pool does not retry a failed connection: `run` throws the `.connection` error and the
/// caller decides when to try again. A transaction `body` leaves open is rolled back after it.
/// The threads keep the pool alive: `close()` it when done. A cancelled task still waits for
/// its queued call.
public final class PostgresPool: Sendable {
    /// Work for a thread: given the thread's connection, or why it could not connect.
    typealias Job = @Sendable (Result<PostgresConnection, PostgresError>) -> Void

    private struct State {
        var queue: [Job] = []
        var head = 0
        var closed = false
        var runningThreads: Int
        /// Threads waiting for work, the most recently idle last.
        var idle: [Int] = []
        var closeWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let conninfo: String
    /// Run on each connection once it is made: the session's settings.
    private let setup: String?
    private let state: Mutex<State>
    /// Each thread's wake-up: signalled once each time the thread is taken off `State.idle`.
    private let wakeUps: [DispatchSemaphore]

    /// A pool of `size` connections (at least one) to `conninfo`; nothing connects until work
    /// comes. `setup` (such as `SET` statements) runs on each connection once it is made; a
    /// connection it fails on is closed and the job gets its error, as for a failed connect.
    public init(conninfo: String, size: Int, setup: String? = nil) {
        let size = max(size, 1)
        self.conninfo = conninfo
        self.setup = setup
        state = Mutex(State(runningThreads: size))
        wakeUps = (0..<size).map { _ in DispatchSemaphore(value: 0) }
        for thread in 0..<size {
            pthread_detach(SystemThread.spawn(name: "imsh-postgres") { [self] in work(thread) })
        }
    }

    /// Runs `body` on a pool thread with a healthy connection and returns its result; waits in
    /// line when all threads are busy. Throws a `.connection` error when no connection can be
    /// made, or "pool closed" after `close()`.
    public func run<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            submit(body) { continuation.resume(with: $0) }
        }
    }

    /// Runs `body` as `run` does and hands its result to `then` on the pool's thread: for a
    /// caller on an event loop, which hands it back itself with no task in between (a task and
    /// a continuation cost two more threads woken for each call).
    public func submit<T>(
        _ body: @escaping @Sendable (PostgresConnection) throws -> T, then: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        let queued = enqueue { connection in
            then(Result { try body(connection.get()) })
        }
        if !queued { then(.failure(Self.closedError)) }
    }

    /// Runs `body` between BEGIN and COMMIT on a pool thread; when the server rolls the
    /// transaction back for a serialization failure or a deadlock, runs it again in a new
    /// transaction, up to `attempts` times in all. Other errors are thrown at once.
    public func transaction<T: Sendable>(
        attempts: Int = 5, _ body: @escaping @Sendable (PostgresConnection) throws -> T
    ) async throws -> T {
        try await run { connection in
            var attempt = 1
            while true {
                do {
                    return try connection.transaction(body)
                } catch let error as PostgresError where error.sqlState?.isRetryableTransactionFailure == true && attempt < attempts {
                    // A short random pause, so that the transactions that collided do not collide again.
                    usleep(UInt32.random(in: 1_000...5_000) * UInt32(attempt))
                    attempt += 1
                }
            }
        }
    }

    /// Finishes the work already queued, then closes every connection and ends the threads.
    /// Later calls throw a connection error ("pool closed").
    public func close() async {
        let idle = state.withLock { state -> [Int] in
            guard !state.closed else { return [] }
            state.closed = true
            defer { state.idle = [] }
            return state.idle
        }
        for thread in idle { wakeUps[thread].signal() }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state -> Bool in
                if state.runningThreads == 0 { return true }
                state.closeWaiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    static let closedError = PostgresError(kind: .connection, message: "pool closed")

    /// Queues `job`; false once the pool is closed.
    private func enqueue(_ job: @escaping Job) -> Bool {
        let (queued, woken) = state.withLock { state -> (Bool, Int?) in
            guard !state.closed else { return (false, nil) }
            state.queue.append(job)
            return (true, state.idle.popLast())
        }
        if let woken { wakeUps[woken].signal() }
        return queued
    }

    /// The next job for `thread`, waiting while there is none; nil when the pool is closed and
    /// nothing is left.
    private func next(_ thread: Int) -> Job? {
        while true {
            let job = state.withLock { state -> Job?? in
                guard state.head < state.queue.count else {
                    if state.closed { return .some(nil) }
                    state.idle.append(thread)
                    return nil
                }
                let job = state.queue[state.head]
                state.head += 1
                // Drop the finished part of the array now and then rather than shifting it per job.
                if state.head >= 64, state.head * 2 >= state.queue.count {
                    state.queue.removeFirst(state.head)
                    state.head = 0
                }
                return job
            }
            if let job { return job }
            wakeUps[thread].wait()
        }
    }

    /// A pool thread: runs jobs on its own connection until the pool closes.
    private func work(_ thread: Int) {
        var connection: PostgresConnection?
        while let job = next(thread) {
            if let current = connection, !current.isHealthy {
                current.close()
                connection = nil
            }
            if connection == nil {
                do throws(PostgresError) {
                    connection = try PostgresConnection.connect(conninfo, setup: setup)
                } catch {
                    job(.failure(error))
                    continue
                }
            }
            job(.success(connection!))
            connection?.endAbandonedTransaction()
        }
        connection?.close()
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.runningThreads -= 1
            guard state.runningThreads == 0 else { return [] }
            defer { state.closeWaiters = [] }
            return state.closeWaiters
        }
        waiters.forEach { $0.resume() }
    }
}
