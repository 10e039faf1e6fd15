import IMEngine

/// What a lane shows over a stretch of time: the connection statuses folded into six kinds.
///
/// Every terminal status other than a kick (sign-out, timeout, refused token, ban, ...) is
/// `ended`; its status and code stay on the span and on an error mark.
public enum SpanKind: String, Sendable, CaseIterable {
    case connected
    case connecting
    case networkUnavailable
    case suspended
    case kicked
    case ended

    public init(_ status: ConnectionStatus) {
        switch status {
        case .connected: self = .connected
        case .connecting: self = .connecting
        case .networkUnavailable: self = .networkUnavailable
        case .suspend: self = .suspended
        case .kickedOfflineByOtherClient: self = .kicked
        default: self = .ended
        }
    }

    /// The word a legend shows.
    public var label: String {
        switch self {
        case .connected: return "connected"
        case .connecting: return "connecting"
        case .networkUnavailable: return "network unavailable"
        case .suspended: return "suspended"
        case .kicked: return "kicked"
        case .ended: return "ended"
        }
    }

    /// Fill colour in SVG and HTML.
    var color: String {
        switch self {
        case .connected: return "#2e9e44"
        case .connecting: return "#e0a400"
        case .networkUnavailable: return "#8e5cc9"
        case .suspended: return "#3b7dd8"
        case .kicked: return "#d6336c"
        case .ended: return "#9aa0a6"
        }
    }
}
