import IMTransport

/// One proxied connection: the client's side, the server's once connected, the bytes waiting
/// each way, and the faults on it. Confined to the proxy's loop.
///
/// The pair is forgotten once both sides have closed, or at once when it is reset or cut.
final class ProxyPair {
    let id: ProxyConnectionID
    let client: Connection
    var upstream: Connection?
    var isConnecting = false
    var isFinished = false
    var conditions: LinkConditions
    /// A cut waits for the next packet to start, either way.
    var isCutArmed = false
    var isClientClosed = false
    var isUpstreamClosed = false
    let toServer = ProxyPipe(towardServer: true)
    let toClient = ProxyPipe(towardServer: false)
    unowned let state: ProxyState

    init(id: ProxyConnectionID, client: Connection, conditions: LinkConditions, state: ProxyState) {
        self.id = id
        self.client = client
        self.conditions = conditions
        self.state = state
    }

    /// Starts reading the client; connects to the server unless the pair starts black-holed
    /// (a lost SYN: the server hears of it once the black hole lifts).
    func start(reset: Bool, cut: Bool) {
        client.start(ProxySide(self, isClient: true))
        isCutArmed = cut
        if reset { return finish() }
        if !conditions.isBlackholed { connectUpstream() }
    }

    /// Takes on `fault`: `close` resets now, `cut` arms, the others change the conditions.
    func apply(_ fault: Fault) {
        guard !isFinished else { return }
        switch fault {
        case .close:
            finish()
        case .cut:
            isCutArmed = true
        default:
            let wasHeld = conditions.isBlackholed
            conditions.apply(fault)
            if fault == .pass {
                isCutArmed = false
                let now = ContinuousClock.now
                toServer.expedite(now: now)
                toClient.expedite(now: now)
            }
            if wasHeld && !conditions.isBlackholed {
                resume()
            } else {
                pump(toServer)
                pump(toClient)
            }
        }
    }

    /// The black hole lifted. A side that closed meanwhile is gone for good: the pair is reset
    /// and what was held is dropped, as a reset lost in the network leaves nothing to resend.
    private func resume() {
        if isClientClosed || isUpstreamClosed { return finish() }
        if upstream == nil { return connectUpstream() }
        pump(toServer)
        pump(toClient)
    }

    func connectUpstream() {
        guard !isConnecting, upstream == nil, !isFinished else { return }
        isConnecting = true
        let options = ConnectOptions(timeout: .seconds(5), connection: ConnectionOptions(framing: .raw))
        let bound = LoopBound(confined: self, loop: state.loop)
        state.loop.connect(to: state.targetHost, port: state.targetPort, options: options) { result in
            let pair = bound.value
            pair.isConnecting = false
            switch result {
            case .success(let connection):
                guard !pair.isFinished else { return connection.close(.abortive) }
                pair.upstream = connection
                connection.start(ProxySide(pair, isClient: false))
                pair.pump(pair.toServer)
            case .failure:
                pair.finish()
            }
        }
    }

    func received(_ bytes: [UInt8], fromClient: Bool) {
        guard !isFinished else { return }
        let pipe = fromClient ? toServer : toClient
        let lost = state.drawsLoss(conditions.lossPercent)
        pipe.append(bytes, delay: conditions.delay + (lost ? LinkConditions.retransmissionTimeout : .zero), now: .now)
        pump(pipe)
        updateReading(pipe)
    }

    func becameWritable(client isClient: Bool) {
        let pipe = isClient ? toClient : toServer
        pipe.isDestinationFull = false
        pump(pipe)
    }

    /// One side closed: what it sent still crosses (unless held), then the other side closes.
    func closed(fromClient: Bool) {
        guard !isFinished else { return }
        if fromClient {
            isClientClosed = true
            toServer.isSourceClosed = true
            toClient.drop()
        } else {
            isUpstreamClosed = true
            toClient.isSourceClosed = true
            toServer.drop()
        }
        let upstreamGone = isUpstreamClosed || (upstream == nil && !isConnecting)
        if isClientClosed && upstreamGone { return forget() }
        guard !conditions.isBlackholed else { return }
        pump(fromClient ? toServer : toClient)
    }

    /// Resets both sides and forgets the pair.
    func finish() {
        guard !isFinished else { return }
        forget()
        client.close(.abortive)
        upstream?.close(.abortive)
    }

    /// Drops the pair's state; its sockets are closed or being closed.
    func forget() {
        isFinished = true
        state.pairs[id] = nil
        for pipe in [toServer, toClient] {
            if let timer = pipe.timer { state.loop.cancelTimer(timer) }
            pipe.timer = nil
            pipe.drop()
        }
    }

    var info: ProxyConnectionInfo {
        let upstreamState: ProxyConnectionInfo.Upstream =
            upstream == nil ? (isConnecting ? .connecting : .none) : (isUpstreamClosed ? .closed : .connected)
        return ProxyConnectionInfo(
            id: id, client: client.remoteAddress, upstream: upstreamState, conditions: conditions, cutPending: isCutArmed,
            bytesToServer: toServer.forwardedBytes, bytesToClient: toClient.forwardedBytes,
            heldBytes: toServer.queuedBytes + toClient.queuedBytes)
    }
}
