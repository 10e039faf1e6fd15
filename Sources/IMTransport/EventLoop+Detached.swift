extension EventLoop {
    /// Runs `work` in a task off the loop, then `then` with its result back on this loop.
    /// Call on the loop thread.
    ///
    /// A round trip costs two thread hand-overs (to Swift's executor and back through
    /// `execute`); work that can run on the loop without blocking it should stay there.
    public func run<T: Sendable>(
        detached work: @escaping @Sendable () async throws -> T,
        then: @escaping (Result<T, any Error>) -> Void
    ) {
        let then = LoopBound(confined: then, loop: self)
        Task {
            let result: Result<T, any Error>
            do { result = .success(try await work()) } catch { result = .failure(error) }
            execute { then.value(result) }
        }
    }
}
