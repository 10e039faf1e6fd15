import Synchronization

/// Names one session for the life of the process: the key of its snapshot in the event hub.
public struct SessionID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt64

    public init(rawValue: UInt64) { self.rawValue = rawValue }

    private static let counter = Atomic<UInt64>(0)

    /// A number no other session of this process has.
    static func next() -> SessionID {
        SessionID(rawValue: counter.add(1, ordering: .relaxed).newValue)
    }

    public var description: String { "session \(rawValue)" }
}
