extension SQLiteMessageLane {
    /// Nothing waits for a turn: every call submitted has run and committed (or failed).
    var isIdle: Bool { jobs.isEmpty }

    /// Nothing to send early: a device's acknowledgements run before any read asked for after
    /// them, in the order the calls came, and no other node reads this store.
    func connectionEnded(_ device: DeviceKey) {}
}
