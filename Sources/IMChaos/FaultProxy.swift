import Dispatch
import IMThreads
import IMTransport

/// A TCP proxy that injects network faults between MQTT clients and their server.
///
/// Each accepted connection is paired with a new one to the target and bytes are copied both
/// ways as they arrive, until a fault says otherwise. Faults go on one connection (by the id
/// the proxy gave it) or on all of them, including those accepted later:
///
/// - `delay(d)`: each chunk read is forwarded `d` after it arrived, in order; a close crosses
///   after the bytes before it.
/// - `throttle(r)`: at most `r` bytes a second cross each way, in pieces of 1/20 s worth.
/// - `loss(p)`: each chunk read is lost, p times in a hundred, and crosses
///   `LinkConditions.retransmissionTimeout` late, those after it behind it, as TCP delivers
///   over a lossy path. The draws come from the proxy's `seed`, in the order chunks are read.
/// - `blackhole`: nothing crosses and no socket closes. Bytes read are held (reading pauses
///   past 1 MiB, pushing back on the sender as a full TCP window would) and cross in order
///   when `pass` lifts the black hole. A connection accepted meanwhile is not carried on to
///   the server until then. A side that closes meanwhile is gone for good: on `pass` its pair
///   is reset and what was held is dropped; once both sides have closed the pair is forgotten.
/// - `close`: both sides are reset (RST) at once; for all, new connections are reset too.
/// - `cut`: the next MQTT packet to cross, either way, is forwarded up to half its length
///   (at least one byte, never all); then its receiver gets a FIN and the sender a reset.
///   Packets are found by their fixed headers.
/// - `pass`: clears delay, throttle, loss, black hole and a cut not yet made.
///
/// Faults can also come at random from a seed (`startRandomFaults`). Every fault injected and
/// every cut made is reported to `onEvent`, on the proxy's loop thread (it must not block).
/// The proxy runs one event loop thread, which holds all of its state.
public final class FaultProxy: Sendable {
    /// Where the proxy listens; with port 0, the port the kernel picked.
    public let address: SocketAddress
    private let group: EventLoopGroup
    private let listener: Listener
    private let state: LoopBound<ProxyState>

    /// The port clients connect to.
    public var port: UInt16 { address.port }

    /// Listens on `host:port` (numeric; port 0 picks one) and forwards to `targetHost:targetPort`;
    /// `seed` draws the chunks `loss` loses.
    public init(
        host: String = "127.0.0.1", port: UInt16 = 0, targetHost: String = "127.0.0.1", targetPort: UInt16, seed: UInt64 = 0,
        onEvent: @escaping @Sendable (ProxyEvent) -> Void = { _ in }
    ) throws(TransportError) {
        let group = try EventLoopGroup(threads: 1, name: "fault-proxy")
        let loop = group.loops[0]
        let state = LoopBound(
            ProxyState(loop: loop, targetHost: targetHost, targetPort: targetPort, seed: seed, onEvent: onEvent), loop: loop)
        do {
            listener = try Listener(host: host, port: port, group: group, options: ConnectionOptions(framing: .raw)) { client in
                state.value.accept(client)
            }
        } catch {
            group.shutdown()
            throw error
        }
        self.group = group
        self.state = state
        address = listener.localAddress
    }

    /// Puts `fault` on every connection, and on those accepted later until `pass`.
    public func set(_ fault: Fault) async {
        _ = await onLoop { $0.inject(fault, into: nil, origin: .command) }
    }

    /// Puts `fault` on connection `id`.
    /// - Returns: false when no open connection has that id.
    @discardableResult
    public func inject(_ fault: Fault, into id: ProxyConnectionID) async -> Bool {
        await onLoop { $0.inject(fault, into: id, origin: .command) } ?? false
    }

    /// Sends connections accepted from now on to `host:port`; open ones keep their server.
    public func retarget(host: String = "127.0.0.1", port: UInt16) async {
        _ = await onLoop { state in
            state.targetHost = host
            state.targetPort = port
        }
    }

    /// Injects a fault drawn from `plan` every `plan.every`, first after one interval;
    /// replaces random faults already running.
    public func startRandomFaults(_ plan: RandomFaults) async {
        _ = await onLoop { state in
            state.stopRandomFaults()
            state.planner = FaultPlanner(plan)
            state.randomTimer = state.loop.scheduleTimer(after: plan.every) { [weak state] in state?.injectRandomFault() }
        }
    }

    /// Stops injecting random faults; those already made stay.
    public func stopRandomFaults() async {
        _ = await onLoop { $0.stopRandomFaults() }
    }

    /// The open connections, in id order.
    public func connections() async -> [ProxyConnectionInfo] {
        await onLoop { state in state.pairs.keys.sorted().compactMap { state.pairs[$0]?.info } } ?? []
    }

    /// Connections accepted so far.
    public func acceptedCount() async -> Int {
        await onLoop { $0.accepted } ?? 0
    }

    /// Connections open now (client side), whatever their faults.
    public func openCount() async -> Int {
        await onLoop { $0.pairs.count } ?? 0
    }

    /// Stops listening, resets every connection and ends the proxy's thread.
    public func stop() async {
        listener.close()
        _ = await onLoop { state in
            state.stopRandomFaults()
            for pair in Array(state.pairs.values) { pair.finish() }
        }
        let group = self.group
        // shutdown() joins the loop's thread: a blocking wait, kept off the cooperative pool.
        await BlockingCall.run { group.shutdown() }
    }

    /// Runs `body` with the state on the loop; nil once the proxy has stopped.
    private func onLoop<T: Sendable>(_ body: @escaping @Sendable (ProxyState) -> T) async -> T? {
        let state = self.state, loop = group.loops[0]
        return await withCheckedContinuation { continuation in
            if !loop.execute({ continuation.resume(returning: body(state.value)) }) { continuation.resume(returning: nil) }
        }
    }
}
