/// Draws the random faults of a `RandomFaults` plan, one after the other.
///
/// The n-th fault and its parameter depend on the seed alone. Which connection it hits
/// depends also on which are open: the drawn `pick` chooses among them in id order, so a run
/// that opens the same connections gets the same faults on the same ones.
public struct FaultPlanner: Sendable {
    /// One drawn fault, before a connection is chosen.
    public struct Draw: Sendable, Equatable {
        public var fault: Fault
        /// Chooses the connection: `pick % count` among the open ones in id order.
        public var pick: UInt64

        public init(fault: Fault, pick: UInt64) {
            self.fault = fault
            self.pick = pick
        }

        /// The connection this draw hits among `open`, or nil when none is open.
        public func target(among open: [ProxyConnectionID]) -> ProxyConnectionID? {
            guard !open.isEmpty else { return nil }
            return open.sorted()[Int(pick % UInt64(open.count))]
        }
    }

    public let plan: RandomFaults
    private var generator: SeededGenerator

    public init(_ plan: RandomFaults) {
        self.plan = plan
        generator = SeededGenerator(seed: plan.seed)
    }

    /// The next fault: a kind, its parameter, and the pick, drawn in that order.
    public mutating func next() -> Draw {
        let kind = plan.kinds[Int(generator.next() % UInt64(plan.kinds.count))]
        let fault: Fault
        switch kind {
        case .pass: fault = .pass
        case .delay: fault = .delay(.milliseconds(generator.value(in: plan.delays)))
        case .throttle: fault = .throttle(bytesPerSecond: generator.value(in: plan.rates))
        case .loss: fault = .loss(percent: generator.value(in: plan.losses))
        case .blackhole: fault = .blackhole
        case .close: fault = .close
        case .cut: fault = .cut
        }
        return Draw(fault: fault, pick: generator.next())
    }
}
