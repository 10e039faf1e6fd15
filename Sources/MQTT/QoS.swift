/// Quality of service: how hard a message is delivered.
public enum QoS: UInt8, CaseIterable, Comparable, Hashable, Sendable, CustomStringConvertible {
    case atMostOnce = 0
    case atLeastOnce = 1
    case exactlyOnce = 2

    public static func < (lhs: QoS, rhs: QoS) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "QoS \(rawValue)" }
}
