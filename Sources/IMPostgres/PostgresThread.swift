#if canImport(Glibc)
import Glibc
#endif

/// Threads for blocking libpq calls, so that they never hold a thread of Swift's cooperative pool.
enum PostgresThread {
    /// Starts a joinable thread running `body`.
    static func spawn(_ body: @escaping @Sendable () -> Void) -> pthread_t {
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
        return thread
    }
}
