/// The window and files a `timeline` command asks for, as parsed (instants resolve when it runs).
public struct TimelineRequest: Sendable, Equatable {
    /// How far back from `until` to start, in milliseconds; nil: from the first entry.
    public var since: Int64?
    public var until: TimelineInstant
    public var svgFile: String?
    public var htmlFile: String?

    public init(since: Int64? = nil, until: TimelineInstant = .now, svgFile: String? = nil, htmlFile: String? = nil) {
        self.since = since
        self.until = until
        self.svgFile = svgFile
        self.htmlFile = htmlFile
    }
}
