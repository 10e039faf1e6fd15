/// What one terminal cell of a lane shows: a span's kind or a mark.
enum Glyph: Sendable, Equatable {
    case span(SpanKind)
    case mark(TimelineMark.Kind)

    func character(unicode: Bool) -> Character {
        switch self {
        case .span(let kind):
            switch kind {
            case .connected: return unicode ? "\u{2588}" : "#"
            case .connecting: return unicode ? "\u{2592}" : "~"
            case .networkUnavailable: return unicode ? "\u{2591}" : "."
            case .suspended: return unicode ? "\u{2504}" : "-"
            case .kicked: return unicode ? "\u{00D7}" : "x"
            case .ended: return unicode ? "\u{00B7}" : "_"
            }
        case .mark(let kind):
            switch kind {
            case .attempt: return unicode ? "\u{254E}" : "|"
            case .kick: return "K"
            case .error: return "!"
            case .failure: return "F"
            }
        }
    }

    /// The ANSI SGR parameters.
    var color: String {
        switch self {
        case .span(let kind):
            switch kind {
            case .connected: return "32"
            case .connecting: return "33"
            case .networkUnavailable: return "35"
            case .suspended: return "34"
            case .kicked: return "31"
            case .ended: return "90"
            }
        case .mark(let kind):
            switch kind {
            case .attempt: return "1;33"
            case .kick, .error: return "1;31"
            case .failure: return "1;35"
            }
        }
    }
}
