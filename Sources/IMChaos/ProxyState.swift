import IMTransport

/// Everything a `FaultProxy` keeps: its connections, the faults for all of them, its target.
/// Confined to the proxy's one event loop.
final class ProxyState {
    let loop: EventLoop
    var targetHost: String
    var targetPort: UInt16
    /// The conditions new connections start with (faults set for all).
    var defaults = LinkConditions()
    /// `close` for all: new connections are reset as they come, until `pass`.
    var closesNew = false
    /// `cut` for all: new connections are cut at their first packet, until `pass`.
    var cutsNew = false
    var pairs: [ProxyConnectionID: ProxyPair] = [:]
    var accepted = 0
    var planner: FaultPlanner?
    var randomTimer: TimerID?
    /// Draws which chunks a `loss` loses, in the order they are read.
    private var losses: SeededGenerator
    private let onEvent: @Sendable (ProxyEvent) -> Void

    init(loop: EventLoop, targetHost: String, targetPort: UInt16, seed: UInt64, onEvent: @escaping @Sendable (ProxyEvent) -> Void) {
        self.loop = loop
        self.targetHost = targetHost
        self.targetPort = targetPort
        losses = SeededGenerator(seed: seed)
        self.onEvent = onEvent
    }

    /// Whether the next chunk read is lost, `percent` in a hundred; no draw for 0.
    func drawsLoss(_ percent: Int) -> Bool {
        percent > 0 && losses.value(in: 0...99) < percent
    }

    func report(_ event: ProxyEvent) { onEvent(event) }

    /// Takes a new client connection: pairs it with the server, or resets it under `close`.
    func accept(_ client: Connection) {
        accepted += 1
        let pair = ProxyPair(id: ProxyConnectionID(accepted), client: client, conditions: defaults, state: self)
        pairs[pair.id] = pair
        pair.start(reset: closesNew, cut: cutsNew)
    }

    /// Applies `fault` to one connection, or to all (and those to come) when `id` is nil.
    /// - Returns: false when no open connection has that id.
    func inject(_ fault: Fault, into id: ProxyConnectionID?, origin: FaultEvent.Origin) -> Bool {
        if let id {
            guard let pair = pairs[id] else { return false }
            report(.fault(FaultEvent(connection: id, fault: fault, origin: origin)))
            pair.apply(fault)
            return true
        }
        report(.fault(FaultEvent(connection: nil, fault: fault, origin: origin)))
        defaults.apply(fault)
        switch fault {
        case .pass: (closesNew, cutsNew) = (false, false)
        case .close: closesNew = true
        case .cut: cutsNew = true
        default: break
        }
        for id in pairs.keys.sorted() { pairs[id]?.apply(fault) }
        return true
    }

    /// Draws the next random fault, applies it to an open connection, and schedules the next.
    func injectRandomFault() {
        guard var planner else { return }
        let draw = planner.next()
        self.planner = planner
        if let id = draw.target(among: Array(pairs.keys)) {
            _ = inject(draw.fault, into: id, origin: .random)
        }
        randomTimer = loop.scheduleTimer(after: planner.plan.every) { [weak self] in self?.injectRandomFault() }
    }

    func stopRandomFaults() {
        if let randomTimer { loop.cancelTimer(randomTimer) }
        randomTimer = nil
        planner = nil
    }
}
