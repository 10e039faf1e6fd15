/// One account's row of a timeline: its spans in time order and its marks.
public struct TimelineLane: Sendable, Equatable {
    /// The account as the shell names it, such as `dev/alice-phone`.
    public var name: String
    /// The account's user: devices of one user can kick each other.
    public var userID: String?
    public var spans: [TimelineSpan]
    public var marks: [TimelineMark]

    public init(name: String, userID: String?, spans: [TimelineSpan] = [], marks: [TimelineMark] = []) {
        self.name = name
        self.userID = userID
        self.spans = spans
        self.marks = marks
    }
}
