import IMEngine

/// Several accounts' connection logs laid out against one time axis: one lane per account,
/// coloured spans, marks for attempts, kicks and errors, and links from a device that logged
/// in to the device of the same user it kicked.
///
/// Pure value: built from log entries already read, so every renderer (terminal, SVG, HTML)
/// and every test works on the same layout-free data.
public struct Timeline: Sendable, Equatable {
    public var lanes: [TimelineLane]
    public var links: [TimelineLink]
    /// The index in `links` of the link ending at a lane's kick, by lane and time.
    private var linkIndex: [Int: [Int64: Int]] = [:]
    /// The window shown, in milliseconds since the epoch; `end > start`.
    public var start: Int64
    public var end: Int64

    /// How far apart a kick and the other device's connection may be logged and still be linked.
    public static let kickMatchWindow: Int64 = 5_000

    /// Lanes from `sources`, cut to `since`...`until` (`since` nil: from the first entry).
    ///
    /// The status at `since` comes from the last entry before it; the last span of a lane runs
    /// to `until`, since nothing was logged after it.
    public init(_ sources: [LaneSource], since: Int64?, until: Int64) {
        let first = sources.compactMap { $0.entries.map(\.at).min() }.min()
        let start = since ?? min(first ?? until, until)
        self.start = start
        end = max(until, start + 1)
        lanes = sources.map { [start, end] in Self.lane($0, start: start, end: end) }
        links = []
        links = kickLinks()
        for (index, link) in links.enumerated() { linkIndex[link.to, default: [:]][link.kickedAt] = index }
    }

    public var spanCount: Int { lanes.reduce(0) { $0 + $1.spans.count } }

    /// Every kick and error mark with its lane, in time order (lane order among equal times).
    public var events: [(lane: Int, mark: TimelineMark)] {
        var all: [(lane: Int, mark: TimelineMark)] = []
        for (index, lane) in lanes.enumerated() {
            all += lane.marks.filter { $0.kind != .attempt }.map { (index, $0) }
        }
        return all.enumerated().sorted { ($0.element.mark.at, $0.offset) < ($1.element.mark.at, $1.offset) }.map(\.element)
    }

    /// The link that ends at `lane`'s kick logged at `at`, if the kicking device is shown.
    public func link(kicking lane: Int, at: Int64) -> TimelineLink? {
        linkIndex[lane]?[at].map { links[$0] }
    }
}
