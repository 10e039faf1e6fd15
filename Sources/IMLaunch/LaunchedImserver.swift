import IMProcess
import IMThreads

/// An imserver that `ImserverLauncher` started and that said where it listens.
public struct LaunchedImserver: Sendable {
    public let child: ChildProcess
    /// The string members of its listening line: `mqtt`, `api`, and the other listeners it
    /// opened (`mqtts`, `ws`, `metrics`, ...), each as `HOST:PORT`.
    public let listening: [String: String]
    /// The lines it printed before that one (an `upgrading` event; in a log, its standard error too).
    public let earlier: [String]
    public let mqttPort: UInt16
    public let apiPort: UInt16
    /// Our end of its standard output, for `.kept` output: the caller reads on, and closes it.
    public let output: Int32?

    /// Sends `signal` and waits for the server to end (on a thread of its own: waiting blocks).
    @discardableResult
    public func stop(_ signal: Int32) async -> ChildProcess.Termination {
        let child = self.child
        child.signal(signal)
        return await BlockingCall.run { child.wait() }
    }
}
