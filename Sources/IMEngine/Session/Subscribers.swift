/// The open `AsyncStream`s of one kind of session event.
struct Subscribers<Element: Sendable> {
    private var continuations: [UInt64: AsyncStream<Element>.Continuation] = [:]
    private var next: UInt64 = 0

    /// A new stream; `onEnd` runs with its key when the consumer stops listening.
    mutating func add(
        buffering: AsyncStream<Element>.Continuation.BufferingPolicy, onEnd: @escaping @Sendable (UInt64) -> Void
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: buffering)
        next += 1
        let key = next
        continuations[key] = continuation
        continuation.onTermination = { _ in onEnd(key) }
        return stream
    }

    mutating func remove(_ key: UInt64) {
        continuations[key] = nil
    }

    func yield(_ element: Element) {
        for continuation in continuations.values { continuation.yield(element) }
    }

    mutating func finishAll() {
        let all = continuations.values
        continuations = [:]
        for continuation in all { continuation.finish() }
    }
}
