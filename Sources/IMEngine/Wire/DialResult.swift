import IMTransport
import MQTT
import IMProtocol

/// How one server answered a CONNECT.
enum DialResult: Sendable {
    /// CONNACK 0x00.
    case accepted(EstablishedConnection)
    /// CONNACK with a failure reason code; the connection is closed.
    case refused(ConnAck)
    /// No usable answer; the connection, if any, is closed.
    case unusable(DialFailure)

    var detail: String {
        switch self {
        case .accepted: return "accepted"
        case .refused(let connack):
            var text = "refused with \(connack.reasonCode)"
            if let reason = connack.properties.reasonString { text += " (\(reason))" }
            return text
        case .unusable(let failure): return failure.description
        }
    }

    /// The detail with its hint apart, so that a list of servers says each hint once.
    var text: FailureText {
        if case .unusable(let failure) = self { return failure.text }
        return FailureText(detail)
    }
}

/// Why a server gave no usable answer.
enum DialFailure: Sendable, CustomStringConvertible {
    case transport(TransportError)
    /// Connected, but no CONNACK came within the time allowed.
    case noAnswer(Duration)
    /// The server broke MQTT (a malformed packet, something other than CONNACK first).
    case protocolViolation(String)
    /// The server answered a plaintext CONNECT with a TLS record: the address needs mqtts://.
    case speaksTLS
    /// A plaintext server closed the link before CONNACK, as TLS ports that send no alert do.
    case closedBeforeConnack(TransportError)

    /// A failure below MQTT (the server may be unreachable, not refusing).
    var isTransport: Bool {
        switch self {
        case .transport, .closedBeforeConnack: return true
        default: return false
        }
    }

    /// The TLS trouble that retrying cannot fix, if that is what this is.
    var permanentTLSFailure: TLSFailure? {
        switch self {
        case .transport(.tls(let failure)) where failure.isPermanent: return failure
        case .speaksTLS: return TLSFailure(.peerNotTLS, "this port speaks TLS: use mqtts://")
        default: return nil
        }
    }

    /// The WebSocket trouble that retrying cannot fix: an HTTP client error other than 408 and
    /// 429 (a wrong path, not a WebSocket endpoint), another subprotocol, a broken handshake.
    /// A 5xx, 408 or 429 (a proxy or balancer under load) and a close frame are retried.
    var permanentWebSocketFailure: WebSocketFailure? {
        guard case .transport(.webSocket(let failure)) = self else { return nil }
        switch failure {
        case .notUpgraded(let status): return (400..<500).contains(status.rawValue) && ![408, 429].contains(status.rawValue) ? failure : nil
        case .wrongSubprotocol, .badHandshake: return failure
        case .noAnswer, .closedByPeer, .refused, .upgradeRefused: return nil
        }
    }

    var description: String { text.description }

    /// What went wrong, with the hint apart.
    var text: FailureText {
        switch self {
        case .transport(let error): return error.text
        case .noAnswer(let limit): return FailureText("no CONNACK within \(limit)")
        case .protocolViolation(let detail): return FailureText(detail)
        case .speaksTLS: return FailureText("this port speaks TLS: use mqtts://")
        case .closedBeforeConnack(let error):
            let hints = [error.text.hint, "if that port speaks TLS, use mqtts://"].compactMap { $0 }
            return FailureText("\(error.text.reason) before CONNACK", hint: hints.joined(separator: "; "))
        }
    }
}

extension ConnectionAttempt {
    /// Connects to `server`, sends CONNECT and reads the answer.
    func dial(_ server: ServerAddress, connect: [UInt8], viaRedirect: Bool) async -> DialResult {
        let connection: Connection
        do {
            var options = self.options
            if server.tls { options.tls = try tlsSettings(for: server) }
            if let path = server.webSocketPath {
                options.webSocket = WebSocketSettings(path: path, limits: WebSocketLimits(packetSize: options.connection.maximumFrameSize))
            }
            connection = try await Connection.connect(to: server.host, port: server.port, options: options, on: loop)
        } catch {
            return .unusable(.transport(error))
        }
        let frames = connection.frames()
        do {
            try await connection.write(connect)
        } catch {
            connection.close(.abortive)
            return .unusable(.transport(error))
        }
        // A local close ends the frames: that is how the wait for CONNACK is bounded.
        let limit = connackTimeout
        let watchdog = Task {
            try await Task.sleep(for: limit)
            connection.close(.abortive)
        }
        defer { watchdog.cancel() }
        var iterator = frames.makeAsyncIterator()
        let frame: [UInt8]
        do {
            guard let next = try await iterator.next() else {
                connection.close(.abortive)
                return .unusable(Task.isCancelled ? .transport(.cancelled) : .noAnswer(limit))
            }
            frame = next
        } catch {
            if !server.tls, error == .closedByPeer || error == .connectionReset { return .unusable(.closedBeforeConnack(error)) }
            return .unusable(.transport(error))
        }
        guard case .connack(let connack)? = try? Packet(frame: frame) else {
            connection.close(.abortive)
            if !server.tls && Self.isTLSRecord(frame) { return .unusable(.speaksTLS) }
            return .unusable(.protocolViolation("the server did not answer CONNECT with a valid CONNACK"))
        }
        guard connack.reasonCode == .success else {
            connection.close()
            return .refused(connack)
        }
        return .accepted(EstablishedConnection(
            connection: connection, frames: frames, connack: connack, server: server, viaRedirect: viaRedirect))
    }
}
