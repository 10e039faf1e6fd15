import Dispatch
import IMTransport

/// A TCP proxy on 127.0.0.1 (port 0) between sessions and the server, with network faults a
/// test switches on: the device's bad network of seed 003, or a heartbeat that stops.
///
/// Each accepted connection is paired with one to `127.0.0.1:targetPort` and bytes are copied
/// both ways as they arrive. All of its state lives on its own event loop.
final class FaultProxy: Sendable {
    enum Mode: Sendable, Equatable {
        /// Bytes and closes cross as they arrive.
        case pass
        /// Nothing crosses and no socket closes, as when packets are lost: bytes are held (TCP
        /// would resend them), new connections are accepted but not carried on to the server.
        /// A side that closes meanwhile is gone for good: when forwarding resumes, what it sent
        /// is dropped and its pair closed, since a reset lost in the network leaves nothing behind.
        case blackhole
        /// Every connection is closed at once (reset), and new ones as they come.
        case closed
    }

    let port: UInt16
    private let targetPort: UInt16
    private let group: EventLoopGroup
    private let loop: EventLoop
    private let listener: Listener
    private let state: LoopBound<State>

    final class State {
        var mode = Mode.pass
        var pairs: [ObjectIdentifier: Pair] = [:]
        var accepted = 0
    }

    init(targetPort: UInt16) throws {
        let group = try EventLoopGroup(threads: 1, name: "fault-proxy")
        let loop = group.loops[0]
        let state = LoopBound(State(), loop: loop)
        self.group = group
        self.loop = loop
        self.state = state
        self.targetPort = targetPort
        let raw = ConnectionOptions(framing: .raw)
        do {
            listener = try Listener(group: group, options: raw) { client in
                Self.accept(client, state: state.value, targetPort: targetPort, loop: loop)
            }
        } catch {
            group.shutdown()
            throw error
        }
        port = listener.localAddress.port
    }

    /// Switches to `mode`; returns once the proxy acts on it.
    func set(_ mode: Mode) async {
        let state = self.state, loop = self.loop, targetPort = self.targetPort
        await onLoop {
            let current = state.value
            current.mode = mode
            for pair in Array(current.pairs.values) {
                switch mode {
                case .pass: pair.resume(state: current, targetPort: targetPort, loop: loop)
                case .blackhole: break
                case .closed: pair.finish(state: current)
                }
            }
        }
    }

    /// Connections accepted so far.
    func acceptedCount() async -> Int {
        let state = self.state
        return await onLoop { state.value.accepted } ?? 0
    }

    /// Connections open now (client side), whatever the mode.
    func openCount() async -> Int {
        let state = self.state
        return await onLoop { state.value.pairs.count } ?? 0
    }

    /// Closes everything and stops the proxy's loop.
    func stop() async {
        listener.close()
        await set(.closed)
        let group = self.group
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                group.shutdown()
                done.resume()
            }
        }
    }

    private func onLoop<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T? {
        let loop = self.loop
        return await withCheckedContinuation { continuation in
            if !loop.execute({ continuation.resume(returning: body()) }) { continuation.resume(returning: nil) }
        }
    }

    private static func accept(_ client: Connection, state: State, targetPort: UInt16, loop: EventLoop) {
        state.accepted += 1
        let pair = Pair(client: client)
        state.pairs[ObjectIdentifier(pair)] = pair
        client.start(Pair.Side(pair, isClient: true, state: state))
        switch state.mode {
        case .pass: pair.connectUpstream(state: state, targetPort: targetPort, loop: loop)
        case .blackhole: break
        case .closed: pair.finish(state: state)
        }
    }
}

extension FaultProxy {
    /// One proxied connection: the client's side, the server's side once connected, and
    /// what each sent while the proxy held it. Confined to the proxy's loop.
    final class Pair {
        let client: Connection
        var upstream: Connection?
        var isConnecting = false
        var isFinished = false
        var heldForServer: [[UInt8]] = []
        var heldForClient: [[UInt8]] = []
        var clientClosed = false
        var upstreamClosed = false

        init(client: Connection) { self.client = client }

        func connectUpstream(state: State, targetPort: UInt16, loop: EventLoop) {
            guard !isConnecting, upstream == nil, !isFinished else { return }
            isConnecting = true
            let options = ConnectOptions(timeout: .seconds(5), connection: ConnectionOptions(framing: .raw))
            let bound = LoopBound(confined: (self, state), loop: loop)
            loop.connect(to: "127.0.0.1", port: targetPort, options: options) { result in
                let (pair, state) = bound.value
                pair.isConnecting = false
                switch result {
                case .success(let connection):
                    guard !pair.isFinished else { return connection.close(.abortive) }
                    pair.upstream = connection
                    connection.start(Side(pair, isClient: false, state: state))
                    if state.mode == .pass { pair.flush(state: state) }
                case .failure:
                    pair.finish(state: state)
                }
            }
        }

        /// Forwarding is back: a pair whose side closed meanwhile ends, the others carry on.
        func resume(state: State, targetPort: UInt16, loop: EventLoop) {
            if clientClosed || upstreamClosed { return finish(state: state) }
            if upstream == nil { return connectUpstream(state: state, targetPort: targetPort, loop: loop) }
            flush(state: state)
        }

        func flush(state: State) {
            guard let upstream else { return }
            for chunk in heldForServer { _ = try? upstream.send(chunk) }
            for chunk in heldForClient { _ = try? client.send(chunk) }
            heldForServer = []
            heldForClient = []
        }

        func received(_ bytes: [UInt8], fromClient: Bool, state: State) {
            guard !isFinished else { return }
            if state.mode == .pass, let upstream, heldForServer.isEmpty, heldForClient.isEmpty {
                _ = try? (fromClient ? upstream : client).send(bytes)
            } else if fromClient {
                heldForServer.append(bytes)
            } else {
                heldForClient.append(bytes)
            }
        }

        func closed(fromClient: Bool, state: State) {
            guard !isFinished else { return }
            if fromClient { clientClosed = true } else { upstreamClosed = true }
            guard state.mode == .pass else { return }
            // Pass the close on after what the closing side sent.
            flush(state: state)
            isFinished = true
            state.pairs[ObjectIdentifier(self)] = nil
            if fromClient { upstream?.close() } else { client.close() }
        }

        /// Resets both sides and forgets the pair.
        func finish(state: State) {
            guard !isFinished else { return }
            isFinished = true
            state.pairs[ObjectIdentifier(self)] = nil
            client.close(.abortive)
            upstream?.close(.abortive)
        }

        /// Receives one side's bytes and close.
        final class Side: ConnectionHandler {
            weak var pair: Pair?
            let isClient: Bool
            let state: State

            init(_ pair: Pair, isClient: Bool, state: State) {
                self.pair = pair
                self.isClient = isClient
                self.state = state
            }

            func connection(_ connection: Connection, didReceive frame: [UInt8]) {
                pair?.received(frame, fromClient: isClient, state: state)
            }

            func connection(_ connection: Connection, didCloseWith error: TransportError?) {
                pair?.closed(fromClient: isClient, state: state)
            }
        }
    }
}
