/// A timeline as lines of text for a terminal of a given width: one row of cells per lane,
/// an axis, a legend, and the kicks and errors listed in time order.
///
/// Each cell shows the kind that covers most of its stretch of time; a kick, an error or an
/// attempt inside the stretch replaces it. Every line fits `capabilities.width` columns
/// (at least 30). Without Unicode, every character is ASCII; without colour, no escape codes.
public struct TerminalTimeline: Sendable {
    public var capabilities: TerminalCapabilities
    public var clock: TimelineClock

    public init(capabilities: TerminalCapabilities, clock: TimelineClock = .local) {
        self.capabilities = capabilities
        self.clock = clock
    }

    var width: Int { max(30, capabilities.width) }

    /// The most kicks and errors listed, the latest ones: a list longer than a screenful or
    /// two is no longer read.
    public static let eventLimit = 200

    public func lines(_ timeline: Timeline) -> [String] {
        guard !timeline.lanes.isEmpty else { return ["no accounts to show"] }
        let names = timeline.lanes.map(\.name)
        let labelWidth = min(names.map(\.count).max() ?? 0, max(8, width / 3))
        let barWidth = width - labelWidth - 1
        var lines = [fit("timeline \(clock.dateTime(timeline.start)) to \(clock.dateTime(timeline.end)), "
            + "\(timeline.lanes.count) account\(timeline.lanes.count == 1 ? "" : "s")")]
        lines.append(String(repeating: " ", count: labelWidth + 1) + axis(timeline, width: barWidth))
        for (index, lane) in timeline.lanes.enumerated() {
            let label = Self.padded(shortened(lane.name, to: labelWidth), labelWidth)
            lines.append(label + " " + row(lane, index: index, timeline: timeline, width: barWidth))
        }
        lines += legend()
        let events = timeline.events
        if !events.isEmpty { lines.append(fit("events:")) }
        if events.count > Self.eventLimit {
            lines.append(fit("  (\(events.count - Self.eventLimit) earlier kicks and errors not listed; narrow the window with --since or --until)"))
        }
        for (lane, mark) in events.suffix(Self.eventLimit) { lines.append(fit("  " + eventText(mark, lane: lane, timeline: timeline))) }
        return lines
    }

    /// The start time on the left, the end time on the right, the middle between when it fits.
    func axis(_ timeline: Timeline, width: Int) -> String {
        // Sub-second stamps only where whole seconds would repeat.
        let format = timeline.end - timeline.start < 60_000 ? clock.preciseTime : clock.time
        let left = format(timeline.start), right = format(timeline.end)
        var cells = Array(repeating: Character(" "), count: width)
        func put(_ text: String, at column: Int) {
            for (offset, character) in text.enumerated() where column + offset >= 0 && column + offset < width {
                cells[column + offset] = character
            }
        }
        put(left, at: 0)
        if width >= left.count * 3 + 4 {
            let middle = format(timeline.start + (timeline.end - timeline.start) / 2)
            put(middle, at: width / 2 - middle.count / 2)
        }
        if width >= left.count + right.count + 1 { put(right, at: width - right.count) }
        return String(cells)
    }

    /// The lane's cells, coloured by kind when colour is on.
    func row(_ lane: TimelineLane, index: Int, timeline: Timeline, width: Int) -> String {
        let duration = Double(timeline.end - timeline.start)
        func cellStart(_ cell: Int) -> Double { Double(timeline.start) + duration * Double(cell) / Double(width) }
        var cells: [Glyph?] = Array(repeating: nil, count: width)
        for cell in 0..<width {
            let from = cellStart(cell), to = cellStart(cell + 1)
            var cover: [SpanKind: Double] = [:]
            for span in lane.spans {
                let overlap = min(Double(span.end), to) - max(Double(span.start), from)
                if overlap > 0 || (span.start == span.end && Double(span.start) >= from && Double(span.start) < to) {
                    cover[span.kind, default: 0] += max(overlap, 0.001)
                }
            }
            if let best = SpanKind.allCases.filter({ cover[$0] != nil }).max(by: { cover[$0]! < cover[$1]! }) {
                cells[cell] = .span(best)
            }
        }
        for mark in lane.marks.sorted(by: { Self.priority($0.kind) < Self.priority($1.kind) }) {
            // Whole numbers, so that a mark on a cell's boundary lands in the cell it starts.
            let cell = min(width - 1, max(0, Int((mark.at - timeline.start) * Int64(width) / (timeline.end - timeline.start))))
            if case .mark(let existing)? = cells[cell], Self.priority(existing) > Self.priority(mark.kind) { continue }
            cells[cell] = .mark(mark.kind)
        }
        return paint(cells)
    }

    private static func priority(_ kind: TimelineMark.Kind) -> Int {
        switch kind {
        case .attempt: return 0
        case .error: return 1
        case .kick: return 2
        case .failure: return 3
        }
    }

    /// One character per cell, with an escape code only where the colour changes.
    private func paint(_ cells: [Glyph?]) -> String {
        var text = "", current: String?
        for cell in cells {
            let color = capabilities.color ? cell?.color : nil
            if color != current {
                if current != nil { text += "\u{1B}[0m" }
                if let color { text += "\u{1B}[\(color)m" }
                current = color
            }
            text.append(cell.map { $0.character(unicode: capabilities.unicode) } ?? " ")
        }
        if current != nil { text += "\u{1B}[0m" }
        return text
    }

    /// What each character means, wrapped to the width.
    func legend() -> [String] {
        let items = SpanKind.allCases.map { (Glyph.span($0), $0.label) }
            + [(Glyph.mark(.attempt), "attempt"), (Glyph.mark(.kick), "kick"), (Glyph.mark(.error), "error")]
        var lines: [String] = [], line = "legend:", visible = line.count
        for (glyph, label) in items {
            let symbol = glyph.character(unicode: capabilities.unicode)
            let painted = capabilities.color ? "\u{1B}[\(glyph.color)m\(symbol)\u{1B}[0m" : String(symbol)
            let addition = 2 + 1 + 1 + label.count
            if visible + addition > width {
                lines.append(line)
                line = " "
                visible = 1
            }
            line += "  \(painted) \(label)"
            visible += addition
        }
        lines.append(line)
        return lines
    }

    func eventText(_ mark: TimelineMark, lane: Int, timeline: Timeline) -> String {
        var text = "\(clock.preciseTime(mark.at)) \(timeline.lanes[lane].name) \(mark.status.name) (\(mark.status.rawValue))"
        if let code = mark.code { text += " error \(code.rawValue)" }
        if let link = timeline.link(kicking: lane, at: mark.at) {
            text += " \(capabilities.unicode ? "\u{2190}" : "<-") \(timeline.lanes[link.from].name)"
        }
        if !mark.detail.isEmpty { text += ": \(mark.detail)" }
        return text
    }

    /// `text` cut to the width, marked as cut.
    private func fit(_ text: String) -> String { shortened(text, to: width) }

    private func shortened(_ text: String, to count: Int) -> String {
        guard text.count > count else { return text }
        return String(text.prefix(max(0, count - 1))) + (capabilities.unicode ? "\u{2026}" : "~")
    }

    private static func padded(_ text: String, _ count: Int) -> String {
        text.count >= count ? text : text + String(repeating: " ", count: count - text.count)
    }
}
