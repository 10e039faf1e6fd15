/// The kinds of fault the proxy knows, by the names its commands use.
public enum FaultKind: String, CaseIterable, Sendable, Hashable {
    case pass
    case delay
    case throttle
    case loss
    case blackhole
    case close
    case cut
}
