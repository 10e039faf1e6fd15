/// How the proxy injects faults at random: which kinds, how often, from which seed.
public struct RandomFaults: Sendable, Equatable {
    /// Seeds the generator: the same seed gives the same faults in the same order.
    public var seed: UInt64
    /// Time between two faults.
    public var every: Duration
    /// The kinds drawn from, each as likely; `pass` among them heals a connection.
    public var kinds: [FaultKind]
    /// A drawn delay, in milliseconds.
    public var delays: ClosedRange<Int>
    /// A drawn throttle, in bytes a second.
    public var rates: ClosedRange<Int>
    /// A drawn loss, in percent.
    public var losses: ClosedRange<Int>

    public init(
        seed: UInt64, every: Duration = .seconds(1), kinds: [FaultKind] = [.delay, .throttle, .close, .blackhole, .cut],
        delays: ClosedRange<Int> = 20...500, rates: ClosedRange<Int> = 1_000...50_000, losses: ClosedRange<Int> = 5...50
    ) {
        precondition(!kinds.isEmpty, "RandomFaults needs at least one kind")
        precondition(every > .zero, "RandomFaults needs a positive interval")
        self.seed = seed
        self.every = every
        self.kinds = kinds
        self.delays = delays
        self.rates = rates
        self.losses = losses
    }
}
