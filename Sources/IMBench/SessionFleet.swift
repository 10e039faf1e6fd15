import Foundation
import IMEngine
import IMProtocol

/// The bench's sessions: one engine, one session per account, each with its own database and
/// reconnect loop, as in normal use.
final class SessionFleet: Sendable {
    let engine: SessionEngine
    let sessions: [Session]
    /// The URL of each session's own server (a `--server` list), else nil.
    let serverURLs: [String?]
    /// Where the engine keeps the sessions' databases.
    let dataDirectory: String

    /// Starts the engine on `threads` event loops and makes a session per account; at most
    /// `openDatabases` of their databases stay open between uses (nil: the engine's default).
    init(
        accounts: [BenchAccount], appKey: String, servers: [ServerAddress], dataDirectory: String, threads: Int,
        timeout: Duration, jitter: Double, openDatabases: Int? = nil
    ) throws(BenchError) {
        do {
            var configuration = EngineConfiguration(
                appKey: appKey, servers: servers, dataDirectory: dataDirectory, callbacks: .immediate,
                networkMonitor: .none, eventLoopThreads: threads)
            configuration.openDatabaseLimit = openDatabases
            engine = try SessionEngine(configuration)
        } catch {
            throw BenchError("the engine cannot start: \(error)")
        }
        self.dataDirectory = dataDirectory
        serverURLs = accounts.map { $0.server?.url }
        sessions = accounts.map { [engine] account in
            engine.makeSession(account.parameters(timeout: timeout, jitter: jitter))
        }
    }

    /// Connects every session, at most `rate` connect calls started per second (nil: all at once),
    /// and returns once each call has ended, connected or failed.
    func connectAll(rate: Double?, recorder: ConnectRecorder) async {
        await withTaskGroup(of: Void.self) { group in
            let start = ContinuousClock.now
            for (index, session) in sessions.enumerated() {
                let server = serverURLs[index]
                if let rate {
                    try? await Task.sleep(until: start + .seconds(Double(index) / rate), clock: .continuous)
                }
                group.addTask {
                    let began = ContinuousClock.now
                    recorder.started(at: began)
                    do throws(EngineError) {
                        _ = try await session.connect()
                        let now = ContinuousClock.now
                        recorder.connected(after: now - began, at: now, server: server)
                    } catch {
                        recorder.failed(error)
                    }
                }
            }
        }
    }

    /// Returns once each session's database has done what connecting queued on it (its
    /// connection log): a read through each database's queue, which runs after the writes
    /// before it. A bench that measures messages starts from here, not behind the connect
    /// phase's writes (with 2,000 sessions they held the first second's sends back by up to
    /// 190 ms).
    func settle() async {
        await withTaskGroup(of: Void.self) { group in
            for session in sessions {
                group.addTask { _ = try? await session.connectionLog(limit: 1) }
            }
        }
    }

    /// How many sessions are connected now, from the engine's table of snapshots.
    func connectedCount() -> Int {
        engine.hub.snapshots.values.count { $0.status == .connected }
    }

    /// Database files (`*.sqlite`) under the data directory: before the first connect, the
    /// databases a run finds in place.
    func existingDatabases() -> Int {
        guard let walker = FileManager.default.enumerator(atPath: dataDirectory) else { return 0 }
        var count = 0
        while let path = walker.nextObject() as? String {
            if path.hasSuffix(".sqlite") { count += 1 }
        }
        return count
    }

    /// Disconnects every session (signOut), closes their databases and stops the event loops.
    func shutdown() async {
        await engine.shutdown()
    }
}
