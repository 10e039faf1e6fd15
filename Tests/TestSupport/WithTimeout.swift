/// Runs `body` with a deadline; past it the body is cancelled and the test fails with `TimeoutFailure`.
public func withTimeout<T: Sendable>(
    _ limit: Duration = .seconds(15), _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: limit)
            throw TimeoutFailure(limit: limit)
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}

/// A test's body did not finish in time.
public struct TimeoutFailure: Error, CustomStringConvertible {
    public let limit: Duration
    public var description: String { "timed out after \(limit)" }
}
