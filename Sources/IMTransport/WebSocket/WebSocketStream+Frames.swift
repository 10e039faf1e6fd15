import MQTT

/// Cutting the input into frames and answering each as RFC 6455 says.
extension WebSocketStream {
    /// Works through `inbound`: the upgrade request (server), then frames.
    func process() {
        if phase == .upgrading && isServer { answerUpgrade() }
        guard phase == .open, !inbound.isEmpty else { return }
        var reader = ByteReader(inbound)
        do throws(WebSocketError) {
            while phase == .open, let frame = try WebSocketFrame.decode(from: &reader, limits: settings.limits) {
                try handle(frame)
            }
        } catch {
            refuse(error)
        }
        if phase != .open {
            inbound = []
        } else if reader.isAtEnd {
            inbound = []
        } else if reader.offset > 0 {
            inbound.removeFirst(reader.offset)
        }
    }

    private func handle(_ frame: WebSocketFrame) throws(WebSocketError) {
        if isServer && frame.maskingKey == nil {
            throw WebSocketError(.protocolError, "an unmasked frame from the client")
        }
        if !isServer && frame.maskingKey != nil {
            throw WebSocketError(.protocolError, "a masked frame from the server")
        }
        switch frame.opcode {
        case .binary:
            guard messageSize == nil else { throw WebSocketError(.protocolError, "a new message inside a fragmented one") }
            if !frame.fin { messageSize = frame.payload.count }
            deliver(frame.payload)
        case .continuation:
            guard let size = messageSize else { throw WebSocketError(.protocolError, "a continuation frame outside a message") }
            let total = size + frame.payload.count
            guard total <= settings.limits.maxMessageSize else {
                throw WebSocketError(.messageTooBig, "a message over the limit of \(settings.limits.maxMessageSize) bytes")
            }
            messageSize = frame.fin ? nil : total
            deliver(frame.payload)
        case .text:
            throw WebSocketError(.unsupportedData, "a text frame: MQTT travels in binary frames")
        case .ping:
            if let folded = unansweredPing {
                foldedPongBytes += WebSocketFrame.encodedSize(payload: folded.count, masked: !isServer)
                foldedSinceFlush = true
            }
            unansweredPing = frame.payload
        case .pong:
            break
        case .close:
            let (code, reason) = try WebSocketFrame.parseClose(frame.payload)
            sendClose(code == .noStatus ? .normal : code, reason: "")
            phase = .closed
            failure = .webSocket(.closedByPeer(code, reason: reason))
        default:
            throw WebSocketError(.protocolError, "\(frame.opcode)")
        }
    }

    private func deliver(_ payload: [UInt8]) {
        guard !payload.isEmpty else { return }
        if data.isEmpty {
            data = payload
        } else {
            data += payload
        }
    }

    /// The peer broke the protocol: a close frame says how, and the next read throws.
    func refuse(_ error: WebSocketError) {
        sendClose(error.code, reason: error.reason)
        phase = .closed
        failure = .webSocket(.refused(error))
    }

    /// Queues our close frame, once, after the pong still owed (nothing may follow a close).
    func sendClose(_ code: WebSocketCloseCode, reason: String) {
        guard !closeSent else { return }
        _ = queueUnansweredPong()
        closeSent = true
        queueFrame(WebSocketFrame(opcode: .close, payload: WebSocketFrame.closePayload(code, reason: reason)))
    }

    /// Moves the pong of the latest ping into `pending`; false when none is owed.
    func queueUnansweredPong() -> Bool {
        guard let payload = unansweredPing else { return false }
        unansweredPing = nil
        queueFrame(WebSocketFrame(opcode: .pong, payload: payload))
        return true
    }

    private func queueFrame(_ frame: WebSocketFrame) {
        var frame = frame
        if !isServer { frame.maskingKey = Self.newMaskingKey() }
        var writer = ByteWriter(capacity: frame.payload.count + 14)
        frame.encode(into: &writer)
        queue(writer.bytes)
    }
}
