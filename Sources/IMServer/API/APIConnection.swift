import IMHTTP
import IMTransport

/// One HTTP/1.1 connection of the server API; confined to its connection's event loop.
///
/// Requests are served one at a time in arrival order. While one is with the responder the
/// connection stops reading, so pipelined requests wait in the parser or the kernel and a
/// client cannot pile up work; after the answer the next buffered request is taken, and
/// only then does reading resume. A response the peer does not read (queue full) also
/// stops reading until it drains. Four timers: `idle` while no request has begun on a
/// keep-alive connection (then it closes quietly), `head` from accepting until the first
/// request's head has arrived, the TLS handshake included (short: an idle stranger is let
/// go quickly; one still handshaking cannot be told 408 and closes at once), `request` from a
/// request's first byte until it has arrived whole (both then 408 and close), and `write`
/// while an answer waits for the peer to read (as long as `idle`; then it is cut off, since a
/// peer that pipelines requests and reads nothing would otherwise hold the connection forever).
final class APIConnection: ConnectionHandler {
    private enum TimerKind { case idle, head, request, write }

    private let connection: Connection
    private let responder: any HTTPRequestResponder
    private let options: APIServerOptions
    private let registry: APIConnectionRegistry
    private var parser: HTTPRequestParser
    /// This handler as the responder's task reaches it again. Held until the connection
    /// closes, which ends the cycle handler → handle → handler.
    private var handle: LoopBound<APIConnection>?
    /// A request is with the responder; its answer is not written yet.
    private var busy = false
    /// The server is closing: close after the answer under way, if any.
    private var stopping = false
    /// The peer stopped reading answers; serve again once the queue drains.
    private var awaitingWritable = false
    private var timer: (kind: TimerKind, id: TimerID)?

    private init(
        connection: Connection, responder: any HTTPRequestResponder, options: APIServerOptions, limits: HTTPLimits,
        registry: APIConnectionRegistry
    ) {
        self.connection = connection
        self.responder = responder
        self.options = options
        self.registry = registry
        self.parser = HTTPRequestParser(limits: limits)
    }

    /// Serves a newly accepted connection; call on its loop.
    static func accept(
        _ connection: Connection, responder: any HTTPRequestResponder, options: APIServerOptions, limits: HTTPLimits,
        registry: APIConnectionRegistry
    ) {
        let handle = LoopBound(
            APIConnection(connection: connection, responder: responder, options: options, limits: limits, registry: registry),
            loop: connection.loop)
        let admission = registry.add(connection, handle)
        switch admission {
        case .closing:
            connection.close(.abortive)
        case .full, .fullForAddress:
            let error = admission == .full
                ? APIError(.serviceUnavailable, "too many API connections (\(options.maxConnections)); retry later")
                : APIError(.serviceUnavailable, "too many API connections from \(connection.remoteAddress.host) (\(options.maxConnectionsPerAddress)); retry later")
            // Said if the socket takes it (not over TLS, whose handshake has not begun), and
            // closed at once: a refused peer does not get to hold a descriptor.
            _ = try? connection.send(error.response.serialized(closing: true))
            connection.close(.immediate)
        case .admitted:
            let handler = handle.value
            handler.handle = handle
            handler.arm(.head)
            connection.start(handler)
        }
    }

    /// Closes once the answer under way (if any) is written; the server is shutting down.
    func stop() {
        stopping = true
        if !busy { connection.close(.graceful) }
    }

    // MARK: ConnectionHandler

    func connection(_ connection: Connection, didReceive frame: [UInt8]) {
        parser.append(frame)
        if timer?.kind == .idle { arm(.request) }
        serveBuffered()
    }

    func connectionDidBecomeWritable(_ connection: Connection) {
        guard awaitingWritable else { return }
        awaitingWritable = false
        cancelTimer()
        serveBuffered()
    }

    func connection(_ connection: Connection, didCloseWith error: TransportError?) {
        cancelTimer()
        handle = nil
        registry.remove(connection)
    }

    // MARK: Serving

    /// Serves the requests already buffered, in order, until one goes to the responder or
    /// more bytes are needed; then reads on.
    private func serveBuffered() {
        while !busy && !awaitingWritable && connection.isOpen {
            let begun = parser.bufferedByteCount > 0
            let request: HTTPRequest?
            do {
                request = try parser.nextRequest()
            } catch {
                return refuse(APIError(error.status, error.reason))
            }
            guard let request else {
                if parser.takeContinueExpectation() {
                    _ = try? connection.send(HTTPResponse(status: .continue).serialized())
                }
                if timer == nil { arm(begun ? .request : .idle) }
                // The first head came whole: its body has the request's time.
                if timer?.kind == .head && parser.isReadingBody { arm(.request) }
                connection.resumeReading()
                return
            }
            cancelTimer()
            busy = true
            connection.pauseReading()
            if let response = responder.immediateAnswer(to: request) {
                answer(response, keepAlive: request.keepAlive, toHead: request.method == "HEAD")
            } else {
                respondLater(to: request)
            }
        }
    }

    private func respondLater(to request: HTTPRequest) {
        guard let handle else { return }
        let responder = self.responder, loop = connection.loop, keepAlive = request.keepAlive
        let toHead = request.method == "HEAD"
        Task {
            let response = await responder.respond(to: request)
            loop.execute {
                let connection = handle.value
                connection.answer(response, keepAlive: keepAlive, toHead: toHead)
                connection.serveBuffered()
            }
        }
    }

    /// Writes the answer to the request under way, closing after it when either side asks.
    private func answer(_ response: HTTPResponse, keepAlive: Bool, toHead: Bool = false) {
        busy = false
        guard connection.isOpen else { return }
        let closing = !keepAlive || stopping
        guard let writability = try? connection.send(response.serialized(closing: closing, toHead: toHead)) else { return }
        if closing {
            connection.close(.graceful)
        } else if writability == .full {
            awaitingWritable = true
            arm(.write)
        }
    }

    /// Answers a request that cannot be served and closes: the stream's framing is lost.
    private func refuse(_ error: APIError) {
        cancelTimer()
        _ = try? connection.send(error.response.serialized(closing: true))
        connection.close(.graceful)
    }

    // MARK: Timers

    private func arm(_ kind: TimerKind) {
        cancelTimer()
        let delay = delay(kind)
        let id = connection.loop.scheduleTimer(after: delay) { [weak self] in self?.timerFired(kind) }
        timer = (kind, id)
    }

    private func delay(_ kind: TimerKind) -> Duration {
        switch kind {
        case .idle, .write: options.idleTimeout
        case .head: min(options.headTimeout, options.requestTimeout)
        case .request: options.requestTimeout
        }
    }

    private func cancelTimer() {
        guard let timer else { return }
        connection.loop.cancelTimer(timer.id)
        self.timer = nil
    }

    private func timerFired(_ kind: TimerKind) {
        timer = nil
        guard connection.isOpen, !busy else { return }
        switch kind {
        case .idle:
            connection.close(.graceful)
        case .write:
            // What is queued would never go out: a graceful close would wait for it.
            connection.close(.abortive)
        case .head, .request:
            refuse(APIError(.requestTimeout, "the request did not arrive whole within \(delay(kind))"))
        }
    }
}
