/// Something registered with an event loop for the readiness of one file descriptor.
///
/// Implementations are confined to the loop thread; the loop's handler table keeps them
/// alive while registered, so an open connection lives until it closes.
protocol Selectable: AnyObject {
    /// The epoll event bits that fired (edge-triggered: read or write until "would block").
    func handleEvents(_ events: UInt32)
    /// The loop is shutting down: release the descriptor and tell whoever waits.
    func loopWillStop()
}
