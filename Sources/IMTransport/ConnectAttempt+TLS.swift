/// The TLS step of an outgoing connection, after TCP and any SOCKS5 negotiation.
extension ConnectAttempt {
    func beginTLSOrHandOver(_ state: AttemptState) {
        guard let settings = options.tls, let socket = state.socket else { return beginWebSocketOrHandOver(state) }
        do throws(TLSFailure) {
            let stream = try TLSStream(socket: socket, context: settings.context)
            stream.expect(serverName: settings.serverName)
            state.tls = stream
        } catch {
            return fail(.tls(error))
        }
        advanceTLS(state)
    }

    func advanceTLS(_ state: AttemptState) {
        guard let stream = state.tls, let settings = options.tls else { return }
        do throws(TransportError) {
            guard try stream.handshake() else { return }
            do throws(TLSFailure) {
                try stream.verifyPeer(serverName: settings.serverName)
            } catch {
                throw .tls(error)
            }
            beginWebSocketOrHandOver(state)
        } catch {
            fail(.tls(describe(error)))
        }
    }

    /// A handshake cut short, worded with its likely causes; TLS failures pass as they are.
    private func describe(_ error: TransportError) -> TLSFailure {
        let endpoint = TransportError.endpoint(host, port)
        switch error {
        case let .tls(failure):
            return failure
        case .closedByPeer, .connectionReset:
            return TLSFailure(.handshake, "\(endpoint) closed the connection during the TLS handshake "
                + "(if that port speaks plain MQTT, use mqtt://; or the server wants a client certificate)")
        default:
            return TLSFailure(.handshake, "the TLS handshake with \(endpoint) failed: \(error)")
        }
    }
}
