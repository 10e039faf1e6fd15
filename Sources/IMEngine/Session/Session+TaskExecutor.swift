import IMTransport

extension Session {
    /// The executor of the event loop this session's connections run on, from its first
    /// connect (nil before it).
    ///
    /// A task that prefers it (`Task(executorPreference:)`) runs on that loop, and so does this
    /// actor's code it calls: a `send` is then stored, published and answered without waking
    /// another thread, where from Swift's pool it wakes the loop and then a pool thread for the
    /// answer. For short work only: every session of the loop waits while such a task runs, so
    /// it must not block or compute at length. The loop stays the session's while the engine runs.
    public var taskExecutor: (any TaskExecutor)? { loop }
}
