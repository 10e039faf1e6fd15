/// Takes some of a connection's frames on its event loop, before they are queued for the
/// async consumer of `InboundFrames`.
///
/// For the frames a consumer handles on the loop's thread with no task between (a session
/// storing the messages it receives and acknowledging them): each hand-over to a task and
/// back is a thread woken per frame. Frames the tap leaves keep their order in the queue;
/// the tap's own handling runs beside it.
public protocol FrameTap: AnyObject, Sendable {
    /// On the loop: true when the tap took `frame`, false to queue it for the consumer.
    func take(_ frame: [UInt8], from connection: Connection) -> Bool
}
