import IMProtocol
import IMTransport
import MQTT

extension Session {
    /// Takes over a connection the server accepted: policy, subscription, reading, heartbeat, resends.
    func establish(_ established: EstablishedConnection, generation: UInt64) {
        let connack = established.connack
        let seconds = connack.properties.serverKeepAlive.map(Int.init) ?? parameters.heartbeat
        let link = SessionLink(
            generation: generation, connection: established.connection,
            keepAlive: seconds > 0 ? .seconds(seconds) : nil, now: clock.now)
        activity.attempt = .linked(link)
        local?.outbox.attach(
            link.connection, receiveMaximum: connack.properties.receiveMaximum.map(Int.init) ?? Int(UInt16.max),
            maximumPacketSize: connack.properties.maximumPacketSize.map(Int.init))
        serverUserID = connack.properties.userProperty(IMUserProperty.userID) ?? local?.userID
        token.settle()
        if established.viaRedirect { preferredServer = established.server }

        statusDetail = "connected to \(established.server)" + (connack.sessionPresent ? ", session resumed" : "")
        perform(machine.connected(
            generation: generation, server: established.server, since: clock.epochMilliseconds,
            tls: link.connection.tlsSession))
        guard self.link === link else { return }

        if !connack.sessionPresent || inboxSubscriptionRefused, let id = local?.outbox.reserveID() {
            link.subscribeID = id
            link.send(.subscribe(SessionPackets.subscribeInbox(packetID: id)), at: clock.now)
        }
        let frames = established.frames
        let inbox = local.map { SessionInbox(outbox: $0.outbox, clock: clock, loop: link.connection.loop) }
        link.inbox = inbox
        link.reader = Task {
            if let inbox { await frames.tap(inbox) }
            var iterator = frames.makeAsyncIterator()
            var failure: TransportError?
            do throws(TransportError) {
                while let frame = try await iterator.next() {
                    var frames = [frame]
                    while frames.count < Self.largestBatch, let more = iterator.nextIfBuffered() {
                        frames.append(more)
                    }
                    await self.received(frames, on: link)
                }
            } catch {
                failure = error
            }
            self.linkEnded(link, failure)
        }
        if let keepAlive = link.keepAlive {
            link.heartbeat = Task { await self.runHeartbeat(link, keepAlive: keepAlive) }
        }
        Task { await self.resendPending(on: link) }
    }

    /// The most frames handled as one batch.
    static var largestBatch: Int { 256 }

    /// Handles packets from the server in arrival order. PUBLISHes and PUBACKs take the
    /// loop's path (`SessionInbox`) before they get here.
    private func received(_ frames: [[UInt8]], on link: SessionLink) async {
        guard self.link === link else { return }
        link.lastReceived = clock.now
        link.pingSentAt = nil
        for frame in frames {
            let packet: Packet
            do {
                packet = try Packet(frame: frame)
            } catch {
                return violation(on: link, .malformedPacket, "the server sent a malformed packet: \(error)")
            }
            handle(packet, on: link)
            // A DISCONNECT or a protocol violation ended this link: the rest is not ours.
            guard self.link === link else { return }
        }
    }

    /// A packet the inbox left to the actor.
    private func handle(_ packet: Packet, on link: SessionLink) {
        switch packet {
        case .publish, .puback:
            // Here only for a session without a database, or behind a packet that ended the
            // connection (see `SessionInbox`): a PUBLISH not stored, so not acknowledged (the
            // server delivers it again); a PUBACK whose message goes out again, same cid.
            break
        case .suback(let acknowledgement):
            if acknowledgement.packetIdentifier == link.subscribeID {
                local?.outbox.releaseID(acknowledgement.packetIdentifier)
                link.subscribeID = nil
                inboxSubscribed(acknowledgement.reasonCodes.first ?? .unspecifiedError)
            }
        case .pingresp, .unsuback:
            break
        case .disconnect(let disconnect):
            serverDisconnected(disconnect, on: link)
        default:
            violation(on: link, .protocolError, "the server sent \(packet.type) on an established connection")
        }
    }

    /// The SUBACK of the inbox: a refusal (a broker's ACL, 0x87) leaves the session connected
    /// but deaf, so it is reported as the current status again with the code, stays the last
    /// status change (what `status` shows) and the subscription is asked again on the next connection.
    private func inboxSubscribed(_ code: ReasonCode) {
        if code.isFailure {
            inboxSubscriptionRefused = true
            report(machine.status, nil, detail: "inbox subscription refused: \(code); no message can arrive (asked again on the next connection)")
        } else if inboxSubscriptionRefused {
            inboxSubscriptionRefused = false
            report(machine.status, nil, detail: "inbox subscription granted: \(code)")
        }
    }

    /// The server sent DISCONNECT: read it per contract section 2 (stop, retry, or go elsewhere).
    private func serverDisconnected(_ disconnect: Disconnect, on link: SessionLink) {
        let name = disconnect.properties.userProperty(IMUserProperty.error).map(IMErrorName.init(rawValue:))
        let verdict = ServerVerdict.disconnect(
            disconnect.reasonCode, imError: name, serverReference: disconnect.properties.serverReference)
        // Read before the failure below moves the state on.
        let server = connectedServer
        tearDown(link)
        let reason = disconnect.properties.reasonString.map { " (\($0))" } ?? ""
        switch verdict {
        case .redirect(let reference):
            if let target = ConnectionAttempt.firstAddress(in: reference, from: server) { preferredServer = target }
            fail(link.generation, .moved("the server sent us to \(reference)\(reason)"))
        case .failure(.terminal(var termination)):
            termination.detail += reason
            fail(link.generation, .terminal(termination))
        case .failure(.retryable(let detail)):
            fail(link.generation, .retryable(detail + reason))
        case .failure(.moved(let detail)):
            fail(link.generation, .moved(detail + reason))
        }
    }

    /// The server broke the protocol: say so, drop the connection, and reconnect.
    private func violation(on link: SessionLink, _ reason: ReasonCode, _ detail: String) {
        link.send(.disconnect(Disconnect(reasonCode: reason, properties: [.reasonString(detail)])), at: clock.now)
        tearDown(link)
        fail(link.generation, .retryable(detail))
    }

    /// The connection's frames ended without us closing it.
    private func linkEnded(_ link: SessionLink, _ error: TransportError?) {
        guard self.link === link else { return }
        let lived = clock.epochMilliseconds - (connectedSince ?? clock.epochMilliseconds)
        tearDown(link)
        if error == nil || error == .closedByPeer || error == .connectionReset,
           let termination = takeover.serverClosed(livedMilliseconds: lived) {
            return fail(link.generation, .terminal(termination))
        }
        fail(link.generation, .retryable("connection lost: \(error.map { "\($0)" } ?? "closed by the server")"))
    }

    func tearDown(_ link: SessionLink, _ mode: CloseMode = .graceful) {
        link.close(mode)
        if self.link === link { activity.attempt = nil }
        local?.outbox.detach(link.connection)
        if let id = link.subscribeID { local?.outbox.releaseID(id) }
    }

    /// Sends PINGREQ after `keepAlive` without traffic; no answer within half of it is a dead
    /// connection. A peer that goes silent is found within 1.5 × keepAlive.
    private func runHeartbeat(_ link: SessionLink, keepAlive: Duration) async {
        let answerWithin = keepAlive / 2
        let clock = self.clock
        while self.link === link {
            let due = link.pingSentAt.map { $0 + answerWithin } ?? min(link.lastSent, link.lastArrival) + keepAlive
            do {
                try await clock.sleep(until: due)
            } catch {
                return
            }
            guard self.link === link else { return }
            let now = clock.now
            if let pinged = link.pingSentAt {
                // A message that arrived after the PINGREQ answers it as well as PINGRESP.
                if link.lastArrival > pinged {
                    link.pingSentAt = nil
                    continue
                }
                guard now >= pinged + answerWithin else { continue }
                tearDown(link, .abortive)
                return fail(link.generation, .retryable("the server did not answer PINGREQ within \(answerWithin)"))
            }
            if now >= min(link.lastSent, link.lastArrival) + keepAlive {
                link.send(.pingreq, at: now)
                link.pingSentAt = now
            }
        }
    }
}
