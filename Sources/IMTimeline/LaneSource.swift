import IMEngine

/// An account's connection log as read from its database, before it becomes a lane.
public struct LaneSource: Sendable {
    public var name: String
    public var userID: String?
    public var entries: [ConnectionLogEntry]

    public init(name: String, userID: String?, entries: [ConnectionLogEntry]) {
        self.name = name
        self.userID = userID
        self.entries = entries
    }
}
