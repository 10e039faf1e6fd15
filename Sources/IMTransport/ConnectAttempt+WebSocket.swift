/// The WebSocket step of an outgoing connection, after TCP, SOCKS5 and TLS.
extension ConnectAttempt {
    func beginWebSocketOrHandOver(_ state: AttemptState) {
        guard let settings = options.webSocket, let socket = state.socket else { return handOver(state) }
        state.webSocket = WebSocketStream(connectingOver: state.tls ?? socket, host: host, port: port, settings: settings)
        advanceWebSocket(state)
    }

    func advanceWebSocket(_ state: AttemptState) {
        guard let stream = state.webSocket else { return }
        do throws(TransportError) {
            if try stream.advanceUpgrade() { handOver(state) }
        } catch {
            fail(error)
        }
    }
}
