#if canImport(Glibc)
import CTransport
import Glibc
#endif

/// A thread of its own for work that blocks (an event loop, SQLite, libpq), named for `top -H`
/// and debuggers, so that blocking never holds a thread of Swift's cooperative pool.
public enum SystemThread {
    /// Starts a joinable thread named `name` (at most 15 bytes) running `body`; detach or join it.
    public static func spawn(name: String, _ body: @escaping @Sendable () -> Void) -> pthread_t {
        final class Start: Sendable {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        var thread = pthread_t()
        let start = Unmanaged.passRetained(Start(body)).toOpaque()
        let result = pthread_create(&thread, nil, { argument in
            Unmanaged<Start>.fromOpaque(argument!).takeRetainedValue().body()
            return nil
        }, start)
        precondition(result == 0, "pthread_create: \(String(cString: strerror(result)))")
        _ = imsh_set_thread_name(thread, String(name.utf8.prefix(15))!)
        return thread
    }
}
