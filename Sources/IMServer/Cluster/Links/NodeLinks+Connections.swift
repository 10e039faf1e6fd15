import IMHTTP
import IMTransport

extension NodeLinks {
    /// Takes a connection the link listener accepted: it sends notices once its peer proves itself.
    func accept(_ connection: Connection) {
        guard !stopped, let handshake = try? NodeLinkHandshake(node: node, secret: secret, expected: nil) else {
            return connection.close(.immediate)
        }
        let link = NodeLinkConnection(connection: connection, links: self, handshake: handshake)
        accepted[ObjectIdentifier(link)] = link
    }

    /// Dials `name`'s link address.
    func connect(to name: String, _ address: HostPort) {
        let bound = LoopBound(confined: self, loop: loop)
        let options = ConnectOptions(timeout: Self.silenceLimit, connection: Self.connectionOptions)
        dials[name]?.attempt = loop.connect(to: address.host, port: address.port, options: options) { result in
            bound.value.connected(name, address, result)
        }
    }

    private func connected(_ name: String, _ address: HostPort, _ result: Result<Connection, TransportError>) {
        guard !stopped, dials[name]?.address == address else {
            if case .success(let connection) = result { connection.close(.immediate) }
            return
        }
        dials[name]?.attempt = nil
        guard case .success(let connection) = result,
              let handshake = try? NodeLinkHandshake(node: node, secret: secret, expected: name)
        else { return retryLater(name) }
        dials[name]?.link = NodeLinkConnection(connection: connection, links: self, handshake: handshake)
    }

    private func retryLater(_ name: String) {
        guard let dial = dials[name] else { return }
        dials[name]?.nextAttempt = .now + dial.backoff
        dials[name]?.backoff = min(dial.backoff * 2, .seconds(4))
    }

    /// A link finished its handshake.
    func linked(_ link: NodeLinkConnection) {
        guard let peer = link.peer else { return }
        if link.dialed {
            let missed = dials[peer]?.linkedBefore == true || isYoung
            dials[peer]?.unlinkedSince = nil
            dials[peer]?.linkedBefore = true
            dials[peer]?.backoff = .milliseconds(250)
            // What the peer sent on the link that went down, or stored before it had this
            // node in its view, is in the queues.
            if missed { catchUp() }
        } else {
            accepted[ObjectIdentifier(link)] = nil
            subscribers[peer]?.connection.close(.abortive)
            subscribers[peer] = link
        }
    }

    /// A notice from the node `link` dialed.
    func received(_ line: [UInt8], from link: NodeLinkConnection) {
        do throws(ClusterNoticeError) {
            let notice = try ClusterNotice(parsing: String(decoding: line, as: UTF8.self))
            guard notice.node == link.peer else {
                return refuse(link, NodeLinkError(reason: "node \(link.peer ?? "?") sent a notice of node \(notice.node)"))
            }
            noticesReceived += 1
            handlers.notice(notice)
        } catch {
            handlers.warning("\(error) (from a newer node?); skipped")
        }
    }

    /// Closes a link whose peer broke the protocol, with a warning.
    func refuse(_ link: NodeLinkConnection, _ error: NodeLinkError) {
        handlers.warning("link \(link.dialed ? "to" : "from") \(link.peer ?? link.connection.remoteAddress.description) refused: \(error)")
        link.connection.close(.abortive)
    }

    /// A link closed, for whatever reason.
    func closed(_ link: NodeLinkConnection) {
        accepted[ObjectIdentifier(link)] = nil
        if link.isLinked, !stopped { linksLost += 1 }
        guard let peer = link.peer else {
            if let name = dials.first(where: { $0.value.link === link })?.key { dropDial(name, wasLinked: false) }
            return
        }
        if subscribers[peer] === link { subscribers[peer] = nil }
        if dials[peer]?.link === link { dropDial(peer, wasLinked: link.isLinked) }
    }

    private func dropDial(_ name: String, wasLinked: Bool) {
        dials[name]?.link = nil
        if wasLinked { dials[name]?.unlinkedSince = .now }
        retryLater(name)
    }
}
