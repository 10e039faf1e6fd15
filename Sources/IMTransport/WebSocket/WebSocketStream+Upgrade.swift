import IMHTTP

/// The HTTP upgrade at the start of the stream: answered by a server, awaited by a client.
extension WebSocketStream {
    /// Server: answers the upgrade request once it has arrived; a refusal ends the stream.
    func answerUpgrade() {
        guard var parser = requestParser else { return }
        parser.append(inbound)
        inbound = []
        do throws(HTTPParseError) {
            guard let request = try parser.nextRequest() else {
                requestParser = parser
                return
            }
            let (response, reason) = WebSocketHandshake.response(to: request, path: settings.path)
            requestParser = nil
            if let reason {
                return refuseUpgrade(response, reason: reason)
            }
            queue(response.serialized())
            inbound = parser.takeBufferedBytes()
            phase = .open
        } catch {
            requestParser = nil
            let body = Array((error.reason + "\n").utf8)
            refuseUpgrade(HTTPResponse(status: error.status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: body),
                          reason: error.reason)
        }
    }

    private func refuseUpgrade(_ response: HTTPResponse, reason: String) {
        queue(response.serialized(closing: true))
        phase = .closed
        failure = .webSocket(.upgradeRefused(response.status, reason: reason))
    }

    /// Client: sends the request and reads the answer; true once the WebSocket is open.
    func advanceUpgrade() throws(TransportError) -> Bool {
        guard phase == .upgrading, var parser = responseParser else { return phase == .open }
        guard try flushPending() else { return false }
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let result = try chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(TransportError) in try inner.read(into: buffer) }
            }.get()
            switch result {
            case .wouldBlock:
                responseParser = parser
                return false
            case .endOfStream:
                throw .webSocket(.noAnswer("the server closed the connection without answering the upgrade request"))
            case let .processed(count):
                parser.append(chunk[..<count])
            }
            let response: HTTPResponse?
            do throws(HTTPParseError) {
                response = try parser.nextUpgradeHead()
            } catch {
                throw .webSocket(.badHandshake("the answer is not HTTP (\(error.reason)); is that port a WebSocket endpoint?"))
            }
            guard let response else { continue }
            do throws(WebSocketFailure) {
                try WebSocketHandshake.check(response, key: key)
            } catch {
                throw .webSocket(error)
            }
            responseParser = nil
            inbound = parser.takeBufferedBytes()
            phase = .open
            process()
            return true
        }
    }
}
