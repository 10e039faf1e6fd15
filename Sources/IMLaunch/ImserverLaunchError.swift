/// imserver could not be started, or did not say where it listens: what it said, in words.
public struct ImserverLaunchError: Error, Sendable, CustomStringConvertible {
    public var description: String
}
