import IMEngine

extension Timeline {
    /// One account's spans and marks within `start`...`end`.
    static func lane(_ source: LaneSource, start: Int64, end: Int64) -> TimelineLane {
        let entries = source.entries.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
        var spans: [TimelineSpan] = []
        var marks: [TimelineMark] = []
        for entry in entries where entry.at <= end {
            let kind = SpanKind(entry.status)
            if kind == .connecting, var last = spans.last, last.kind == .connecting {
                // The engine logs each failed attempt while the status stays connecting.
                last.attempts += 1
                spans[spans.count - 1] = last
                marks.append(TimelineMark(kind: .attempt, at: entry.at, status: entry.status, code: entry.code, detail: entry.detail))
                continue
            }
            if !spans.isEmpty { spans[spans.count - 1].end = entry.at }
            spans.append(TimelineSpan(
                kind: kind, status: entry.status, code: entry.code, detail: entry.detail, start: entry.at, end: end,
                attempts: kind == .connecting ? 1 : 0))
            switch kind {
            case .connecting:
                marks.append(TimelineMark(kind: .attempt, at: entry.at, status: entry.status, code: nil, detail: entry.detail))
            case .kicked:
                marks.append(TimelineMark(kind: .kick, at: entry.at, status: entry.status, code: entry.code, detail: entry.detail))
            case .ended where entry.code != nil:
                marks.append(TimelineMark(kind: .error, at: entry.at, status: entry.status, code: entry.code, detail: entry.detail))
            default:
                break
            }
        }
        let shown = spans.compactMap { span -> TimelineSpan? in
            guard span.end > start || (span.end == start && span.start == start) else { return nil }
            var clipped = span
            clipped.start = max(span.start, start)
            return clipped
        }
        return TimelineLane(
            name: source.name, userID: source.userID, spans: shown,
            marks: marks.filter { $0.at >= start && $0.at <= end })
    }

    /// For each kick, the other shown device of the same user that connected closest to it.
    func kickLinks() -> [TimelineLink] {
        // Each lane's connection times, sorted (spans are in time order), searched by halves.
        let connections = lanes.map { $0.spans.filter { $0.kind == .connected }.map(\.start) }
        var links: [TimelineLink] = []
        for (to, lane) in lanes.enumerated() {
            guard let user = lane.userID else { continue }
            for kick in lane.marks where kick.kind == .kick {
                var best: (from: Int, at: Int64)?
                for (from, other) in lanes.enumerated() where from != to && other.userID == user {
                    guard let at = Self.nearest(to: kick.at, in: connections[from]), abs(at - kick.at) <= Self.kickMatchWindow else { continue }
                    if best.map({ abs(at - kick.at) < abs($0.at - kick.at) }) ?? true { best = (from, at) }
                }
                if let best { links.append(TimelineLink(from: best.from, to: to, connectedAt: best.at, kickedAt: kick.at)) }
            }
        }
        return links
    }

    /// The element of `sorted` closest to `value`.
    static func nearest(to value: Int64, in sorted: [Int64]) -> Int64? {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        let candidates = [low - 1, low].filter { sorted.indices.contains($0) }.map { sorted[$0] }
        return candidates.min { abs($0 - value) < abs($1 - value) }
    }
}
