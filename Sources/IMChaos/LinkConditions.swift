/// The lasting faults on one connection, or the defaults new connections start with.
public struct LinkConditions: Sendable, Hashable, CustomStringConvertible {
    /// How long each chunk waits before it is forwarded; zero for none.
    public var delay: Duration = .zero
    /// The most bytes a second each way; nil for no limit.
    public var bytesPerSecond: Int?
    /// The percentage of chunks lost once, each way; 0 for none.
    public var lossPercent = 0
    /// Whether nothing crosses.
    public var isBlackholed = false

    /// How late a lost chunk crosses: Linux's least TCP retransmission timeout.
    public static let retransmissionTimeout: Duration = .milliseconds(200)

    public init() {}

    /// Whether nothing slows or stops the bytes.
    public var isPassing: Bool { self == LinkConditions() }

    /// Takes on `fault`'s condition; `pass` clears them all, `close` and `cut` change none.
    mutating func apply(_ fault: Fault) {
        switch fault {
        case .pass: self = LinkConditions()
        case .delay(let duration): delay = duration
        case .throttle(let rate): bytesPerSecond = rate
        case .loss(let percent): lossPercent = percent
        case .blackhole: isBlackholed = true
        case .close, .cut: break
        }
    }

    /// `pass`, or the conditions joined by commas: `delay 100,throttle 2000,loss 10`.
    public var description: String {
        var parts: [String] = []
        if delay > .zero { parts.append(Fault.delay(delay).description) }
        if let bytesPerSecond { parts.append(Fault.throttle(bytesPerSecond: bytesPerSecond).description) }
        if lossPercent > 0 { parts.append(Fault.loss(percent: lossPercent).description) }
        if isBlackholed { parts.append("blackhole") }
        return parts.isEmpty ? "pass" : parts.joined(separator: ",")
    }
}
