import CPQ
import IMThreads
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// LISTENs on one channel from a thread of its own and delivers each notification's payload,
/// in order, to `onNotification`.
///
/// When the connection is lost it connects again, waiting 0.1 s at first and doubling up to
/// 2 s between attempts. After every connect and LISTEN (the first too) it calls `onConnected`,
/// so that its owner can read what was notified while nobody listened. Both callbacks run on
/// the listener's thread, one at a time.
public final class PostgresListener: Sendable {
    private let wake: ListenerWake
    /// The listener's thread until `stop()` takes it.
    private let thread: Mutex<pthread_t?>

    /// Starts listening on `channel`, a lower-case identifier (`[a-z_][a-z0-9_]*`, at most 63
    /// bytes); any other name is a programming error.
    public init(
        conninfo: String, channel: String, onConnected: @escaping @Sendable () -> Void,
        onNotification: @escaping @Sendable (String) -> Void
    ) {
        precondition(Self.isPlainIdentifier(channel), "PostgresListener: channel \(channel) is not [a-z_][a-z0-9_]*")
        let wake = ListenerWake()
        self.wake = wake
        thread = Mutex(SystemThread.spawn(name: "imsh-pg-listen") {
            Self.listen(conninfo: conninfo, channel: channel, wake: wake, onConnected: onConnected, onNotification: onNotification)
        })
    }

    deinit { stop() }

    /// Ends the thread and returns once it has ended: no callback runs after this returns
    /// (called from a callback, the thread ends once that callback returns). While the thread
    /// is connecting, that attempt is waited for (at most the connection's connect_timeout).
    public func stop() {
        wake.signal()
        guard let running = thread.withLock({ thread in defer { thread = nil }; return thread }) else { return }
        if pthread_equal(running, pthread_self()) != 0 {
            pthread_detach(running)
        } else {
            pthread_join(running, nil)
        }
    }

    static func isPlainIdentifier(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, bytes.count <= 63, first == 0x5F || (0x61...0x7A).contains(first) else { return false }
        return bytes.allSatisfy { $0 == 0x5F || (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) }
    }

    /// The thread: connect, LISTEN, deliver until the connection breaks; again until stopped.
    private static func listen(
        conninfo: String, channel: String, wake: ListenerWake, onConnected: @Sendable () -> Void,
        onNotification: @Sendable (String) -> Void
    ) {
        var backoff = 100
        while !wake.isSignaled {
            let connection: PostgresConnection
            do {
                connection = try PostgresConnection.connect(conninfo)
                try connection.execute("LISTEN \"\(channel)\"")
            } catch {
                if wake.wait(milliseconds: Int32(backoff)) { return }
                backoff = min(backoff * 2, 2_000)
                continue
            }
            backoff = 100
            guard !wake.isSignaled else { return }
            onConnected()
            deliver(on: connection, wake: wake, onNotification: onNotification)
            connection.close()
        }
    }

    /// Delivers notifications until the connection breaks or `wake` is signaled.
    private static func deliver(on connection: PostgresConnection, wake: ListenerWake, onNotification: @Sendable (String) -> Void) {
        guard let handle = connection.handle else { return }
        while !wake.isSignaled {
            // LISTEN's own answer may have brought notifications with it: read those before waiting.
            while let notification = PQnotifies(handle) {
                let payload = String(cString: notification.pointee.extra)
                PQfreemem(notification)
                guard !wake.isSignaled else { return }
                onNotification(payload)
            }
            guard wake.wait(for: PQsocket(handle)) == .readable else { return }
            guard PQconsumeInput(handle) == 1, PQstatus(handle) == CONNECTION_OK else { return }
        }
    }
}
