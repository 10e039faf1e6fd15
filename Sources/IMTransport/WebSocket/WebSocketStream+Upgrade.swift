import IMHTTP

/// The HTTP upgrade at the start of the stream: answered by a server, awaited by a client.
extension WebSocketStream {
    /// Server: answers the upgrade request once it has arrived; a refusal ends the stream.
    func answerUpgrade() {
        guard var parser = requestParser else { return }
        // A request starts with a method (letters), maybe after blank lines: anything else, such
        // as a TLS ClientHello, is refused at once instead of waiting for a head that never ends.
        // The bytes before it are parsed first, as they would be had they come alone: the answer
        // does not depend on how the bytes were cut into reads.
        var chunk = inbound
        inbound = []
        var notHTTP = false
        if !requestStarted, let index = chunk.firstIndex(where: { $0 != 0x0D && $0 != 0x0A }) {
            requestStarted = true
            if !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(chunk[index]) {
                notHTTP = true
                chunk = Array(chunk[..<index])
            }
        }
        parser.append(chunk)
        do throws(HTTPParseError) {
            guard let request = try parser.nextRequest() else {
                guard !notHTTP else {
                    requestParser = nil
                    let reason = "not an HTTP request (a TLS ClientHello? this port serves ws://, not wss://)"
                    return refuseUpgrade(HTTPResponse(status: .badRequest, headers: ["Content-Type": "text/plain; charset=utf-8"],
                                                      body: Array((reason + "\n").utf8)), reason: reason)
                }
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
            let read = chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(TransportError) in try inner.read(into: buffer) }
            }
            guard case let .success(result) = read else {
                // A TLS port may reset the connection right after its alert.
                if case let .failure(error) = read { throw answeredWithTLS() ?? error }
                return false
            }
            switch result {
            case .wouldBlock:
                responseParser = parser
                return false
            case .endOfStream:
                if let failure = answeredWithTLS() { throw failure }
                throw .webSocket(.noAnswer("the server closed the connection without answering the upgrade request"))
            case let .processed(count):
                parser.append(chunk[..<count])
                // The first bytes, kept to recognise a TLS port (`inbound` is unused until the 101).
                if inbound.count < 2 { inbound += chunk[..<min(count, 2 - inbound.count)] }
            }
            let response: HTTPResponse?
            do throws(HTTPParseError) {
                response = try parser.nextUpgradeHead()
            } catch {
                if let failure = answeredWithTLS() { throw failure }
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

    /// A TLS port answers a plaintext request with an alert record (0x15 0x03 ...) and closes:
    /// retrying cannot help, the address needs wss://.
    private func answeredWithTLS() -> TransportError? {
        guard inbound.count == 2, inbound[0] == 0x15 || inbound[0] == 0x16, inbound[1] == 0x03 else { return nil }
        return .webSocket(.badHandshake("the server answered with TLS: that port wants wss://"))
    }
}
