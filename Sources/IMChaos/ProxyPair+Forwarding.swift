import IMTransport

extension ProxyPair {
    /// Past this many bytes waiting in a pipe, its source is not read until it drains, so
    /// a delayed, throttled or held connection pushes back on its sender as TCP would.
    static let queueLimit = 1 << 20

    /// Writes what the pipe may release now; schedules itself again for what must wait.
    func pump(_ pipe: ProxyPipe) {
        guard !isFinished, !conditions.isBlackholed,
              let destination = pipe.towardServer ? upstream : client else { return }
        if let timer = pipe.timer {
            state.loop.cancelTimer(timer)
            pipe.timer = nil
        }
        defer { updateReading(pipe) }
        while !pipe.isDestinationFull {
            switch pipe.take(now: .now, bytesPerSecond: conditions.bytesPerSecond) {
            case .empty:
                // Everything the closed side sent has crossed: now its close does.
                if pipe.isSourceClosed { destination.close() }
                return
            case .wait(let duration):
                pipe.timer = state.loop.scheduleTimer(after: duration) { [weak self, pipe] in
                    pipe.timer = nil
                    self?.pump(pipe)
                }
                return
            case .bytes(let bytes):
                guard forward(bytes, through: pipe, to: destination) else { return }
            }
        }
    }

    /// Writes `bytes`, or the part of them before a cut and then makes the cut.
    /// - Returns: false once the pair is cut.
    private func forward(_ bytes: [UInt8], through pipe: ProxyPipe, to destination: Connection) -> Bool {
        if isCutArmed, pipe.cut == nil, let packet = pipe.boundaries.firstPacket(in: bytes[...]) {
            isCutArmed = false
            // Half the packet, and never all of it: a packet is at least two bytes.
            let kept = max(1, (packet.length ?? 2) / 2)
            pipe.cut = ProxyPipe.PendingCut(remaining: packet.offset + kept, kept: kept, packet: packet)
        }
        if let cut = pipe.cut, cut.remaining <= bytes.count {
            write(Array(bytes.prefix(cut.remaining)), through: pipe, to: destination)
            makeCut(through: pipe, cut, to: destination)
            return false
        }
        pipe.cut?.remaining -= bytes.count
        pipe.boundaries.advance(over: bytes[...])
        write(bytes, through: pipe, to: destination)
        return true
    }

    private func write(_ bytes: [UInt8], through pipe: ProxyPipe, to destination: Connection) {
        pipe.forwardedBytes += bytes.count
        // A closed destination throws; its close callback is on its way.
        if (try? destination.send(bytes)) == .full { pipe.isDestinationFull = true }
    }

    /// The destination gets the packet's start and then a FIN, so it reads a truncated
    /// packet; the source is reset.
    private func makeCut(through pipe: ProxyPipe, _ cut: ProxyPipe.PendingCut, to destination: Connection) {
        state.report(.cut(CutEvent(
            connection: id, towardServer: pipe.towardServer, packet: cut.packet.typeName, forwarded: cut.kept,
            length: cut.packet.length)))
        forget()
        destination.close()
        (pipe.towardServer ? client : upstream)?.close(.abortive)
    }

    /// Pauses the pipe's source while the pipe is long or its destination full; resumes after.
    func updateReading(_ pipe: ProxyPipe) {
        guard let source = pipe.towardServer ? client : upstream, source.isOpen else { return }
        let shouldPause = pipe.isDestinationFull || pipe.queuedBytes >= Self.queueLimit
        guard shouldPause != pipe.isSourcePaused else { return }
        pipe.isSourcePaused = shouldPause
        if shouldPause { source.pauseReading() } else { source.resumeReading() }
    }
}
