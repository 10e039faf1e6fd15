extension SQLiteMessageLane {
    /// Nothing waits for a turn: every call submitted has run and committed (or failed).
    var isIdle: Bool { jobs.isEmpty }
}
