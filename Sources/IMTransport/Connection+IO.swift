#if canImport(Glibc)
import CTransport
import Glibc
#endif

/// How many reads one connection may make per readiness event before others get a turn.
private let readBudget = 16

extension Connection: Selectable {
    func handleEvents(_ events: UInt32) {
        let state = self.state.value
        guard state.phase != .closed else { return }
        if !state.outbound.isEmpty || state.stream.hasPendingOutput { flush(state) }
        let readable = EPOLLIN.rawValue | EPOLLRDHUP.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue
        if events & readable != 0 || state.stream.readWaitsForWritable { readAvailable(state, events: events) }
    }

    func loopWillStop() {
        finish(state.value, error: .eventLoopStopped, abortively: true)
    }

    /// Called by the loop at the end of the turn in which frames were queued.
    func flushQueued() {
        let state = self.state.value
        state.flushScheduled = false
        flush(state)
    }

    /// Reads in a later turn of the loop. Reads never run re-entrantly from a callback, because
    /// every read lands in the loop's shared buffer, which may still be being cut into frames.
    func scheduleRead(_ state: ConnectionState) {
        guard !state.readScheduled else { return }
        state.readScheduled = true
        loop.executeSoon { [self] in
            let state = self.state.value
            state.readScheduled = false
            readAvailable(state, events: 0)
        }
    }

    /// Reads what the socket holds. `events` is the readiness that woke it (0: a scheduled
    /// read): after an edge of input alone, a short read of a plain socket took everything,
    /// and anything arriving later (more data, a FIN) raises a new edge, so the read that
    /// would only say "would block" (one per packet at light load) is skipped. A FIN already
    /// there shows as EPOLLRDHUP, and then the reads go on to the end of the stream.
    private func readAvailable(_ state: ConnectionState, events: UInt32) {
        switch state.phase {
        case .closed, .flushing:
            return
        case .lingering:
            return discardUntilEnd(state)
        case .open:
            guard state.started, !state.readingPaused else { return }
        }
        // Answers the stream made while reading (pongs, a close frame, a 101) go out now.
        defer { if state.phase == .open && state.stream.hasPendingOutput { flush(state) } }
        let buffer = loop.state.value.readBuffer
        let inputAlone = events & EPOLLIN.rawValue != 0 && events & ~(EPOLLIN.rawValue | EPOLLOUT.rawValue) == 0
        let shortReadEnds = inputAlone && state.stream.shortReadDrainsSocket
        do throws(TransportError) {
            if state.decoder.hasPendingBytes {
                try decode(UnsafeRawBufferPointer(start: nil, count: 0), state)
                guard canDeliver(state) else { return }
            }
            for _ in 0..<readBudget {
                switch try state.stream.read(into: buffer) {
                case let .processed(count):
                    try decode(UnsafeRawBufferPointer(rebasing: buffer[..<count]), state)
                    guard canDeliver(state) else { return }
                    if shortReadEnds && count < buffer.count { return }
                case .wouldBlock:
                    return
                case .endOfStream:
                    return finish(state, error: .closedByPeer)
                }
            }
            scheduleRead(state)
        } catch {
            if case let .framing(frameError) = error {
                // The handler may answer (DISCONNECT 0x95) and close gracefully; bytes still
                // coming are then discarded while lingering.
                state.handler?.connection(self, didRefuseFraming: frameError)
                guard state.phase == .open else { return }
            }
            if case .webSocket = error {
                // A close frame or HTTP refusal is queued on the stream: close in order so it arrives.
                state.gracefulCloseError = error
                return closeOnLoop(.graceful)
            }
            finish(state, error: error, abortively: true)
        }
    }

    private func decode(_ bytes: UnsafeRawBufferPointer, _ state: ConnectionState) throws(TransportError) {
        // The handler may close the connection from inside `feed`; `finish` then leaves the
        // decoder alone (it is being mutated) and its bytes are dropped here instead.
        state.isDecoding = true
        defer {
            state.isDecoding = false
            if state.phase == .closed { state.decoder.reset() }
        }
        do {
            try state.decoder.feed(bytes) { frame in
                state.handler?.connection(self, didReceive: frame)
                return canDeliver(state)
            }
        } catch {
            throw .framing(error)
        }
    }

    private func canDeliver(_ state: ConnectionState) -> Bool {
        state.phase == .open && !state.readingPaused
    }

    func flush(_ state: ConnectionState) {
        guard state.phase == .open || state.phase == .flushing else { return }
        do throws(TransportError) {
            var blocked = try !state.stream.flushPending()
            while !state.outbound.isEmpty && !blocked {
                _ = try state.outbound.write { bytes throws(TransportError) in
                    guard case let .processed(count) = try state.stream.write(bytes) else {
                        blocked = true
                        return 0
                    }
                    return count
                }
            }
        } catch {
            return finish(state, error: error, abortively: true)
        }
        guard state.outbound.count + state.stream.pendingOutputCount <= options.outboundLimit else {
            return finish(state, error: .outboundBufferOverflow(limit: options.outboundLimit), abortively: true)
        }
        if !state.isWritable && state.outbound.count <= options.lowWaterMark { becomeWritable(state) }
        if state.phase == .flushing && state.outbound.isEmpty && !state.stream.hasPendingOutput { beginLinger(state) }
    }

    private func becomeWritable(_ state: ConnectionState) {
        state.isWritable = true
        for waiter in state.writeWaiters.take() { waiter.fulfil(.success(())) }
        state.handler?.connectionDidBecomeWritable(self)
    }

    func closeOnLoop(_ mode: CloseMode) {
        let state = self.state.value
        switch (state.phase, mode) {
        case (.closed, _), (.flushing, .graceful), (.lingering, .graceful):
            return
        case (_, .abortive):
            finish(state, error: nil, abortively: true)
        case (_, .immediate):
            // A stream still handshaking writes nothing yet; driving its handshake would only
            // spend work on a peer being turned away.
            if state.stream.isEstablished { flush(state) }
            finish(state, error: nil)
        case (.open, .graceful) where !state.stream.isEstablished:
            // Nothing queued can go out before a handshake the peer may never finish: waiting
            // for it would only hold the descriptor for `closeTimeout`.
            finish(state, error: nil)
        case (.open, .graceful):
            state.phase = .flushing
            state.closeTimer = loop.scheduleTimer(after: options.closeTimeout) { [self] in
                finish(self.state.value, error: nil, abortively: true)
            }
            // A stream's own pending bytes (a close frame, an HTTP refusal) go out before the FIN.
            if state.outbound.isEmpty { state.stream.hasPendingOutput ? flush(state) : beginLinger(state) }
        }
    }

    /// Everything is written: send FIN, then read until the peer's FIN (or the close timer).
    private func beginLinger(_ state: ConnectionState) {
        state.phase = .lingering
        state.stream.shutdownOutput()
        scheduleRead(state)
    }

    private func discardUntilEnd(_ state: ConnectionState) {
        let buffer = loop.state.value.readBuffer
        do throws(TransportError) {
            for _ in 0..<readBudget {
                switch try state.stream.read(into: buffer) {
                case .processed:
                    continue
                case .wouldBlock:
                    return
                case .endOfStream:
                    return finish(state, error: nil)
                }
            }
            scheduleRead(state)
        } catch {
            finish(state, error: nil)
        }
    }

    /// Closes the descriptor and tells the handler and any waiting writers, once.
    func finish(_ state: ConnectionState, error: TransportError?, abortively: Bool = false) {
        guard state.phase != .closed else { return }
        let error = error ?? state.gracefulCloseError
        state.phase = .closed
        state.closeError = error
        if let timer = state.closeTimer {
            loop.cancelTimer(timer)
            state.closeTimer = nil
        }
        loop.deregister(fileDescriptor)
        state.stream.close(abortively: abortively)
        state.outbound.removeAll()
        if !state.isDecoding { state.decoder.reset() }
        state.isWritable = false
        for waiter in state.writeWaiters.take() { waiter.fulfil(.failure(error ?? .closed)) }
        let handler = state.handler
        state.handler = nil
        handler?.connection(self, didCloseWith: error)
    }
}
