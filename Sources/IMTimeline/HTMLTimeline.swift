/// A timeline as a self-contained HTML page: the SVG inline, hover details for every span
/// (status, code, detail, start, end), and the kicks and errors as a table.
public struct HTMLTimeline: Sendable {
    public var svg: SVGTimeline

    public init(width: Int = 1100, clock: TimelineClock = .local) {
        svg = SVGTimeline(width: width, clock: clock)
    }

    public func page(_ timeline: Timeline) -> String {
        HTMLPage(title: "imsh timeline", body: body(timeline)).html
    }

    /// The page's body alone (a sentence, the SVG, the table), for a page that says more
    /// around it (`imsh test --html`).
    public func body(_ timeline: Timeline) -> String {
        let clock = svg.clock
        var body = "<p>\(timeline.lanes.count) account\(timeline.lanes.count == 1 ? "" : "s"), "
            + "\(XMLText.escaped(clock.dateTime(timeline.start))) to \(XMLText.escaped(clock.dateTime(timeline.end))). "
            + "Hover a span for its status, code, detail, start and end.</p>\n"
        body += svg.svg(timeline, interactive: true)
        let events = timeline.events
        if !events.isEmpty {
            body += "<h2>Kicks and errors</h2>\n<table class=\"events\"><tr><th>time</th><th>account</th><th>status</th><th>code</th><th>by</th><th>detail</th></tr>\n"
            for (lane, mark) in events {
                let by = timeline.link(kicking: lane, at: mark.at).map { timeline.lanes[$0.from].name } ?? ""
                body += "<tr><td>\(clock.preciseTime(mark.at))</td><td>\(XMLText.escaped(timeline.lanes[lane].name))</td>"
                    + "<td>\(mark.status.name) (\(mark.status.rawValue))</td><td>\(mark.code.map { "\($0)" } ?? "")</td>"
                    + "<td>\(XMLText.escaped(by))</td><td>\(XMLText.escaped(mark.detail))</td></tr>\n"
            }
            body += "</table>\n"
        }
        return body
    }
}
