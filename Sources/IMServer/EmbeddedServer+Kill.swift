extension EmbeddedServer {
    /// Stops as a crash looks to clients: the listeners close and every connection is reset
    /// (RST) without a DISCONNECT, so each client finds out from its socket alone; no will is
    /// published. What the store committed stays, as on disk after a crash; the server is
    /// then closed as `stop()` closes it. A second call, or one after `stop()`, does nothing.
    public func kill() async {
        await shutDown { core, _ in core.beginCrash() }
    }
}
