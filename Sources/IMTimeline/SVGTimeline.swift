/// A timeline as one self-contained SVG document: lanes of coloured spans, marks, kick links,
/// a time axis and a legend, with no scripts, fonts or links to anything outside.
///
/// Every span is a `rect` with class `span` and `data-*` attributes (kind, status, code,
/// detail, start and end) and a `title` a viewer shows on hover; lanes are `g.lane`, marks
/// `g.mark`, links `path.link`. The HTML page reuses this markup.
public struct SVGTimeline: Sendable {
    public var width: Int
    public var clock: TimelineClock

    public init(width: Int = 1000, clock: TimelineClock = .local) {
        self.width = max(400, width)
        self.clock = clock
    }

    static let laneHeight = 34.0, barHeight = 18.0, top = 44.0, labelWidth = 170.0, right = 20.0
    /// A failed scenario step's mark: purple, which no span kind uses.
    static let failureColor = "#7b1fa2"

    public func document(_ timeline: Timeline) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + svg(timeline)
    }

    /// The `svg` element alone. `interactive` (for inlining in HTML) gives each span a
    /// `data-tip` for the page's script instead of a `title`, so the details are there once.
    public func svg(_ timeline: Timeline, interactive: Bool = false) -> String {
        let plotWidth = Double(width) - Self.labelWidth - Self.right
        let lanesBottom = Self.top + Double(timeline.lanes.count) * Self.laneHeight
        let height = lanesBottom + 56
        let duration = Double(timeline.end - timeline.start)
        func x(_ at: Int64) -> Double { Self.labelWidth + plotWidth * Double(at - timeline.start) / duration }
        func laneTop(_ index: Int) -> Double { Self.top + Double(index) * Self.laneHeight }
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"imsh-timeline\" width=\"\(width)\" height=\(q(height)) "
            + "viewBox=\"0 0 \(width) \(XMLText.number(height))\" data-lanes=\"\(timeline.lanes.count)\" "
            + "data-spans=\"\(timeline.spanCount)\" data-links=\"\(timeline.links.count)\" font-family=\"sans-serif\" font-size=\"12\">\n"
        out += "<title>imsh timeline \(XMLText.escaped(clock.dateTime(timeline.start))) to \(XMLText.escaped(clock.dateTime(timeline.end)))</title>\n"
        out += "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\">"
            + "<path d=\"M0,0 L10,5 L0,10 z\" fill=\"#d6336c\"/></marker></defs>\n"
        out += "<rect x=\"0\" y=\"0\" width=\"\(width)\" height=\(q(height)) fill=\"#ffffff\"/>\n"
        out += axis(timeline, x: x, bottom: lanesBottom)
        for (index, lane) in timeline.lanes.enumerated() {
            out += self.lane(lane, top: laneTop(index), x: x, end: timeline.end, interactive: interactive)
        }
        for link in timeline.links {
            let y1 = laneTop(link.from) + Self.barHeight / 2 + 4, y2 = laneTop(link.to) + Self.barHeight / 2 + 4
            let x1 = x(link.connectedAt), x2 = x(link.kickedAt), bend = min(x1, x2) - 24
            out += "<path class=\"link\" data-from=\"\(attr(timeline.lanes[link.from].name))\" data-to=\"\(attr(timeline.lanes[link.to].name))\" "
                + "d=\"M\(XMLText.number(x1)),\(XMLText.number(y1)) C\(XMLText.number(bend)),\(XMLText.number(y1)) "
                + "\(XMLText.number(bend)),\(XMLText.number(y2)) \(XMLText.number(x2)),\(XMLText.number(y2))\" "
                + "fill=\"none\" stroke=\"#d6336c\" stroke-width=\"1.5\" stroke-dasharray=\"4 2\" marker-end=\"url(#arrow)\">"
                + "<title>\(attr(timeline.lanes[link.from].name)) logged in at \(clock.preciseTime(link.connectedAt)) and kicked "
                + "\(attr(timeline.lanes[link.to].name)) (\(clock.preciseTime(link.kickedAt)))</title></path>\n"
        }
        out += legend(top: lanesBottom + 30, failures: timeline.lanes.contains { $0.marks.contains { $0.kind == .failure } })
        return out + "</svg>\n"
    }

    private func lane(_ lane: TimelineLane, top: Double, x: (Int64) -> Double, end: Int64, interactive: Bool) -> String {
        var out = "<g class=\"lane\" data-name=\"\(attr(lane.name))\" data-user=\"\(attr(lane.userID ?? ""))\">\n"
        out += "<text class=\"lane-label\" x=\"8\" y=\(q(top + Self.barHeight / 2 + 8))>\(XMLText.escaped(lane.name))</text>\n"
        out += "<line x1=\(q(Self.labelWidth)) x2=\(q(x(end))) y1=\(q(top + 4 + Self.barHeight / 2)) y2=\(q(top + 4 + Self.barHeight / 2)) stroke=\"#e4e6e8\"/>\n"
        for span in lane.spans {
            let left = x(span.start), width = max(1, x(span.end) - left)
            let code = span.code.map { "\($0.rawValue)" } ?? ""
            let details = XMLText.escaped(tip(span, lane: lane.name))
            out += "<rect class=\"span span-\(span.kind.rawValue)\" data-kind=\"\(span.kind.rawValue)\" data-status=\"\(span.status.rawValue)\" "
                + "data-status-name=\"\(span.status.name)\" data-code=\"\(code)\" data-detail=\"\(attr(span.detail))\" "
                + "data-start=\"\(span.start)\" data-end=\"\(span.end)\" data-attempts=\"\(span.attempts)\" "
                + (interactive ? "data-tip=\"\(details)\" " : "")
                + "x=\(q(left)) y=\(q(top + 4)) width=\(q(width)) height=\(q(Self.barHeight)) fill=\"\(span.kind.color)\">"
                + (interactive ? "</rect>\n" : "<title>\(details)</title></rect>\n")
        }
        for mark in lane.marks {
            let at = x(mark.at)
            let code = mark.code.map { "\($0.rawValue)" } ?? ""
            out += "<g class=\"mark mark-\(mark.kind.rawValue)\" data-kind=\"\(mark.kind.rawValue)\" data-at=\"\(mark.at)\" data-code=\"\(code)\">"
            switch mark.kind {
            case .attempt:
                out += "<line x1=\(q(at)) x2=\(q(at)) y1=\(q(top + 1)) y2=\(q(top + 7 + Self.barHeight)) stroke=\"#5f4b00\" stroke-width=\"1\"/>"
            case .kick, .error:
                out += "<line x1=\(q(at)) x2=\(q(at)) y1=\(q(top)) y2=\(q(top + 8 + Self.barHeight)) stroke=\"#b00020\" stroke-width=\"2\"/>"
                out += "<text x=\(q(at + 3)) y=\(q(top + 2)) font-size=\"10\" fill=\"#b00020\">\(XMLText.escaped(mark.label))</text>"
            case .failure:
                // Wider and taller than the other marks, in a colour no span or mark has.
                out += "<line x1=\(q(at)) x2=\(q(at)) y1=\(q(top - 2)) y2=\(q(top + 10 + Self.barHeight)) "
                    + "stroke=\"\(Self.failureColor)\" stroke-width=\"3\"/>"
                // Under the bar, clear of a kick's label above it at the same instant.
                out += "<text x=\(q(at + 4)) y=\(q(top + 13 + Self.barHeight)) font-size=\"10\" font-weight=\"bold\" fill=\"\(Self.failureColor)\">"
                    + "\(mark.label)</text>"
            }
            out += "<title>\(XMLText.escaped(title(mark)))</title></g>\n"
        }
        return out + "</g>\n"
    }

    /// What hovering a mark shows: a failure's `FILE:LINE: message` first, as a scenario's
    /// report names it; for the others what the account went through.
    private func title(_ mark: TimelineMark) -> String {
        if mark.kind == .failure { return "\(mark.detail)\nfailed at \(clock.preciseTime(mark.at)), \(mark.status.name) (\(mark.status.rawValue))" }
        var title = "\(mark.kind.rawValue) at \(clock.preciseTime(mark.at)): \(mark.status.name) (\(mark.status.rawValue))"
        if let code = mark.code { title += " \(code)" }
        if !mark.detail.isEmpty { title += ", \(mark.detail)" }
        return title
    }

    /// Status, code, detail, start and end, one per line.
    func tip(_ span: TimelineSpan, lane: String) -> String {
        var lines = [lane, "status: \(span.status.name) (\(span.status.rawValue))"]
        lines.append("code: " + (span.code.map { "\($0)" } ?? "none"))
        lines.append("detail: " + (span.detail.isEmpty ? "none" : span.detail))
        if span.kind == .connecting { lines.append("attempts: \(span.attempts)") }
        lines.append("start: \(clock.dateTime(span.start))")
        lines.append("end: \(clock.dateTime(span.end))")
        return lines.joined(separator: "\n")
    }

    private func axis(_ timeline: Timeline, x: (Int64) -> Double, bottom: Double) -> String {
        var out = "<g class=\"axis\" fill=\"#444\">\n"
        let ticks = TimeTicks.instants(from: timeline.start, to: timeline.end, count: max(2, (width - 200) / 110))
        for tick in ticks {
            let at = x(tick)
            out += "<line x1=\(q(at)) x2=\(q(at)) y1=\(q(Self.top - 6)) y2=\(q(bottom)) stroke=\"#d0d4d8\"/>"
            let label = tick % 1000 == 0 ? clock.time(tick) : clock.preciseTime(tick)
            out += "<text x=\(q(at)) y=\(q(Self.top - 10)) text-anchor=\"middle\">\(label)</text>\n"
        }
        return out + "</g>\n"
    }

    /// The span colours and marks; a failure only on a timeline that has one (a scenario's).
    private func legend(top: Double, failures: Bool) -> String {
        var out = "<g class=\"legend\">", left = Self.labelWidth
        for kind in SpanKind.allCases {
            out += "<rect x=\(q(left)) y=\(q(top - 10)) width=\"12\" height=\"12\" fill=\"\(kind.color)\"/>"
            out += "<text x=\(q(left + 16)) y=\(q(top))>\(kind.label)</text>"
            left += 28 + Double(kind.label.count) * 6.5
        }
        let marks = [("attempt", "#5f4b00", 1), ("kick / error", "#b00020", 2)] + (failures ? [("failed step", Self.failureColor, 3)] : [])
        for (label, color, width) in marks {
            out += "<line x1=\(q(left + 6)) x2=\(q(left + 6)) y1=\(q(top - 12)) y2=\(q(top + 3)) stroke=\"\(color)\" stroke-width=\"\(width)\"/>"
            out += "<text x=\(q(left + 16)) y=\(q(top))>\(label)</text>"
            left += 28 + Double(label.count) * 6.5
        }
        return out + "</g>\n"
    }

    private func q(_ value: Double) -> String { "\"\(XMLText.number(value))\"" }
    private func attr(_ text: String) -> String { XMLText.escaped(text) }
}
