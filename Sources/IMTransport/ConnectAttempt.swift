#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// An outgoing connection being set up: resolve, connect to each address in turn, negotiate SOCKS5.
///
/// One timeout (`ConnectOptions.timeout`) bounds the whole attempt. The completion runs once,
/// on the loop thread (or on the caller's thread if the loop has shut down). Its steps run on
/// the loop; only getaddrinfo runs elsewhere, on the resolver's queue.
public final class ConnectAttempt: Sendable {
    /// The server to reach (through the proxy, if any).
    public let host: String
    public let port: UInt16
    let options: ConnectOptions
    let loop: EventLoop
    private let completion: Mutex<(@Sendable (Result<Connection, TransportError>) -> Void)?>
    private let state: LoopBound<AttemptState>

    final class AttemptState {
        var addresses: [SocketAddress] = []
        var socket: SocketStream?
        /// The address `socket` connects to.
        var current: SocketAddress?
        var lastError: TransportError?
        var timer: TimerID?
        var handshake: SOCKS5Handshake?
        /// The TLS session being negotiated over `socket`, after any SOCKS5 negotiation.
        var tls: TLSStream?
        /// The WebSocket upgrade under way, over `tls` or `socket`.
        var webSocket: WebSocketStream?
    }

    init(
        host: String, port: UInt16, options: ConnectOptions, loop: EventLoop,
        completion: @escaping @Sendable (Result<Connection, TransportError>) -> Void
    ) {
        self.host = host
        self.port = port
        self.options = options
        self.loop = loop
        self.completion = Mutex(completion)
        self.state = LoopBound(AttemptState(), loop: loop)
    }

    /// Gives up: the completion gets `cancelled` unless it already ran. Callable from any thread.
    public func cancel() {
        if loop.inEventLoop {
            fail(.cancelled)
        } else if !loop.execute({ [self] in fail(.cancelled) }) {
            complete(.failure(.cancelled))
        }
    }

    func start() {
        if !loop.execute({ [self] in begin() }) { complete(.failure(.eventLoopStopped)) }
    }

    /// Runs the completion unless it ran before; false when it had.
    @discardableResult
    private func complete(_ result: Result<Connection, TransportError>) -> Bool {
        guard let completion = completion.withLock({ $0.take() }) else { return false }
        completion(result)
        return true
    }

    private var isFinished: Bool { completion.withLock { $0 == nil } }

    // MARK: - Steps, on the loop thread

    private func begin() {
        guard !isFinished else { return }
        let state = self.state.value
        if let timeout = options.timeout {
            state.timer = loop.scheduleTimer(after: timeout) { [self] in timedOut() }
        }
        let target = options.proxy.map { ($0.host, $0.port) } ?? (host, port)
        if let address = SocketAddress(ipAddress: target.0, port: target.1) {
            state.addresses = [address]
            return tryNextAddress(state)
        }
        Resolver.resolve(target.0, port: target.1) { [self] result in
            if !loop.execute({ [self] in resolved(result) }) { complete(.failure(.eventLoopStopped)) }
        }
    }

    private func resolved(_ result: Result<[SocketAddress], TransportError>) {
        guard !isFinished else { return }
        switch result {
        case let .success(addresses):
            let state = self.state.value
            state.addresses = addresses
            tryNextAddress(state)
        case let .failure(error):
            fail(viaProxy(error))
        }
    }

    private func tryNextAddress(_ state: AttemptState) {
        while !state.addresses.isEmpty {
            let address = state.addresses.removeFirst()
            do throws(TransportError) {
                let socket = SocketStream(fileDescriptor: try Socket.open(address.protocolFamily))
                let fd = socket.fileDescriptor
                Socket.setNoDelay(fd)
                let result = address.withSockAddr { Glibc.connect(fd, $0, $1) }
                let code = result == 0 ? 0 : errno
                guard code == 0 || code == EINPROGRESS else {
                    throw TransportError.connectFailure(host: address.host, port: address.port, code: code)
                }
                // Registered only now: an unconnected socket polls as hung up, which would pass for done.
                try loop.register(fd, self)
                state.socket = socket
                state.current = address
                if code == 0 { connected(state) }
                return
            } catch {
                state.lastError = error
            }
        }
        fail(viaProxy(state.lastError ?? .hostNotFound(name: host, reason: "no address to try")))
    }

    private func connected(_ state: AttemptState) {
        guard let proxy = options.proxy else { return beginTLSOrHandOver(state) }
        do {
            state.handshake = try SOCKS5Handshake(proxy: proxy, targetHost: host, targetPort: port)
            advanceHandshake(state)
        } catch {
            fail(error)
        }
    }

    private func advanceHandshake(_ state: AttemptState) {
        guard let handshake = state.handshake, let socket = state.socket else { return }
        do {
            if try handshake.advance(socket) {
                state.handshake = nil
                beginTLSOrHandOver(state)
            }
        } catch {
            fail(error)
        }
    }

    func handOver(_ state: AttemptState) {
        guard let socket = state.socket else { return }
        var stream: any ByteStream = socket
        let tls = state.tls
        if let tls { stream = tls }
        if let webSocket = state.webSocket { stream = webSocket }
        state.socket = nil
        state.tls = nil
        state.webSocket = nil
        state.handshake = nil
        cancelTimer(state)
        let fd = socket.fileDescriptor
        guard let remote = Socket.peerAddress(fd) else {
            let error = SystemError("getpeername")
            loop.deregister(fd)
            // A TLS 1.3 server that refuses the client after its handshake resets the link
            // right behind its alert: the alert names the cause, the socket error does not.
            if let alert = tls?.alertBehindSocketError() { return fail(.tls(alert)) }
            return fail(viaProxy(.connectFailed(host: host, port: port, error)))
        }
        do {
            let connection = try Connection(
                stream: stream, remoteAddress: remote,
                setup: ConnectionSetup(options: options.connection, stream: stream), loop: loop, registered: true)
            if !complete(.success(connection)) { connection.close(.abortive) }
        } catch {
            loop.deregister(fd)
            fail(error)
        }
    }

    private func timedOut() {
        let state = self.state.value
        state.timer = nil
        let after = options.timeout ?? .zero
        if state.webSocket != nil {
            fail(.webSocket(.noAnswer("\(TransportError.endpoint(host, port)) did not answer the upgrade request "
                + "within \(TransportError.text(after)) (is that port an HTTP endpoint?)")))
        } else if state.tls != nil {
            fail(.tls(TLSFailure(.handshake, "the TLS handshake with \(TransportError.endpoint(host, port)) did not finish "
                + "within \(TransportError.text(after)) (if that port speaks plain MQTT, use mqtt://)")))
        } else if let proxy = options.proxy, state.handshake == nil {
            fail(.proxyUnreachable(
                proxy: proxy.host, port: proxy.port,
                reason: .connectTimedOut(host: proxy.host, port: proxy.port, after: after)))
        } else {
            fail(.connectTimedOut(host: host, port: port, after: after))
        }
    }

    /// Releases the socket and timer and reports `error`, unless the attempt finished before.
    func fail(_ error: TransportError) {
        let state = self.state.value
        cancelTimer(state)
        state.addresses = []
        state.handshake = nil
        if let socket = state.socket {
            loop.deregister(socket.fileDescriptor)
            socket.close(abortively: false)
            state.socket = nil
        }
        // Only now: releasing the TLS session closes its socket, which must leave the loop first.
        state.webSocket = nil
        state.tls = nil
        complete(.failure(error))
    }

    private func cancelTimer(_ state: AttemptState) {
        if let timer = state.timer {
            loop.cancelTimer(timer)
            state.timer = nil
        }
    }

    /// A failure to reach the proxy is the proxy's, whatever the cause.
    private func viaProxy(_ error: TransportError) -> TransportError {
        guard let proxy = options.proxy else { return error }
        return .proxyUnreachable(proxy: proxy.host, port: proxy.port, reason: error)
    }
}

extension ConnectAttempt: Selectable {
    func handleEvents(_ events: UInt32) {
        let state = self.state.value
        guard let socket = state.socket else { return }
        if state.webSocket != nil { return advanceWebSocket(state) }
        if state.tls != nil { return advanceTLS(state) }
        if state.handshake != nil { return advanceHandshake(state) }
        let code = Socket.pendingError(socket.fileDescriptor)
        if code == 0 {
            // A stale event (for an earlier socket with this number) must not pass for "connected".
            if Socket.peerAddress(socket.fileDescriptor) != nil { connected(state) }
            return
        }
        loop.deregister(socket.fileDescriptor)
        socket.close(abortively: false)
        state.socket = nil
        let address = state.current
        state.lastError = .connectFailure(host: address?.host ?? host, port: address?.port ?? port, code: code)
        tryNextAddress(state)
    }

    func loopWillStop() {
        fail(.eventLoopStopped)
    }
}

extension EventLoop {
    /// Connects to `host:port` (a host name, an IPv4 or an IPv6 address), reporting on this loop.
    ///
    /// The connection handed to `completion` is not yet reading: call `start(_:)` in the
    /// completion. Use the returned attempt to cancel.
    @discardableResult
    public func connect(
        to host: String, port: UInt16, options: ConnectOptions = .init(),
        completion: @escaping @Sendable (Result<Connection, TransportError>) -> Void
    ) -> ConnectAttempt {
        let attempt = ConnectAttempt(host: host, port: port, options: options, loop: self, completion: completion)
        attempt.start()
        return attempt
    }
}
