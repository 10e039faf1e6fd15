/// A lane's answer to a read of a device's queue (`MessageLane.pending`).
struct QueueRead: Sendable {
    /// What the read found, oldest first.
    var messages: [QueuedMessage]
    /// The read found everything queued for the device past what was asked, and every store
    /// the lane answers later was made after it: a reader that takes all of `messages` may
    /// take each new message as its store is answered, without reading the queue for it.
    /// Only a lane that runs and answers calls in the order they were made can say so.
    var caughtUp: Bool
}
