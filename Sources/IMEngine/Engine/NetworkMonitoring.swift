/// A source of network changes for the engine's sessions.
public protocol NetworkMonitoring: Sendable {
    /// The changes from now on; the stream ends when the monitor stops.
    func events() -> AsyncStream<NetworkEvent>
}

extension LinuxNetworkMonitor: NetworkMonitoring {}

/// Which network monitor an engine listens to.
public enum NetworkMonitorSetting: Sendable {
    /// The kernel's rtnetlink notifications (`LinuxNetworkMonitor`); none when it cannot start.
    case system
    /// No monitor: sessions see only the changes simulated on them.
    case none
    /// This monitor (a test's, or one shared by several engines).
    case custom(any NetworkMonitoring)
}
