/// The status changes a session reported: the latest 1,000, oldest first, and how many there
/// were in all (what a front end compares to see that it missed some).
struct StatusHistory {
    /// How many changes are kept.
    static let limit = 1000

    /// The latest changes, oldest first.
    private(set) var changes: [StatusChange] = []
    /// How many changes were reported since the session was made, the dropped ones too.
    private(set) var count = 0

    /// The latest change; nil before the first.
    var last: StatusChange? { changes.last }

    /// Records `change`, dropping the oldest past the limit.
    mutating func append(_ change: StatusChange) {
        changes.append(change)
        count += 1
        if changes.count > Self.limit { changes.removeFirst(changes.count - Self.limit) }
    }
}
