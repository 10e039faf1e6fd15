#if canImport(Glibc)
import CTransport
import Glibc
#endif

/// A listening TCP socket that spreads accepted connections over an event loop group.
///
/// Accepting runs on one loop of the group; each accepted connection goes to `group.next()`,
/// and `onAccept` runs on that connection's loop with the connection not yet reading: call
/// `start(_:)` there. When descriptors run out (EMFILE), or only the process's reserve is left
/// (`ProcessLimits.connectionCeiling`), accepting pauses briefly and resumes.
public final class Listener: Sendable {
    /// The bound address; with port 0, the port the kernel picked.
    public let localAddress: SocketAddress
    /// The loop that accepts.
    public let loop: EventLoop
    private let group: EventLoopGroup
    private let fileDescriptor: Int32
    /// Shared by every connection accepted here (accepted streams negotiate no client-side TLS).
    private let setup: ConnectionSetup
    /// When set, accepted connections speak TLS with the identity's current certificate.
    private let tls: TLSServerIdentity?
    /// When set, accepted connections speak MQTT over WebSocket (over TLS, if `tls` is set too).
    private let webSocket: WebSocketSettings?
    private let onAccept: @Sendable (Connection) -> Void
    private let onAcceptFailure: (@Sendable (SystemError) -> Void)?
    private let state: LoopBound<ListenerState>

    final class ListenerState {
        var isOpen = true
        var retryTimer: TimerID?
        /// Accepting has failed since the last connection it took (reported once per spell).
        var failing = false
        /// When a failure was last reported: at most one report in `failureReportInterval`.
        var lastFailureReport: ContinuousClock.Instant?
    }

    /// The longest accept queue to ask for; the kernel caps it at `net.core.somaxconn`
    /// (4,096 on current Linux). A server that takes bursts of thousands of connections wants
    /// it: when the queue is full the kernel drops the SYN and the client retries only after
    /// a second or more.
    public static let longestBacklog: Int32 = 65_535

    /// Connections accepted with a descriptor this high or higher are closed at once
    /// (`ProcessLimits.connectionCeiling`, under the limit when the listener was made).
    private let ceiling = Int32(clamping: ProcessLimits.connectionCeiling())

    /// The least time between two reports of failing to accept, so a server at its limit
    /// under churn does not flood its log.
    static let failureReportInterval: Duration = .seconds(10)

    /// Binds `host:port` and starts accepting.
    ///
    /// - Parameters:
    ///   - host: a numeric IPv4 or IPv6 address (names are not resolved here).
    ///   - port: 0 for a free port; read it back from `localAddress`.
    ///   - backlog: the kernel's queue of connections not yet accepted.
    ///   - onAcceptFailure: told, on the loop, when accepting starts failing (out of
    ///     descriptors or memory): once until a connection is accepted again, and at most
    ///     once in 10 seconds.
    public init(
        host: String = "127.0.0.1", port: UInt16 = 0, backlog: Int32 = 1024, group: EventLoopGroup,
        options: ConnectionOptions = .init(), tls: TLSServerIdentity? = nil, webSocket: WebSocketSettings? = nil,
        onAcceptFailure: (@Sendable (SystemError) -> Void)? = nil,
        onAccept: @escaping @Sendable (Connection) -> Void
    ) throws(TransportError) {
        guard let address = SocketAddress(ipAddress: host, port: port) else {
            throw .invalidArgument("cannot listen on '\(host)': give a numeric IPv4 or IPv6 address")
        }
        let fd = try Socket.open(address.protocolFamily)
        Socket.setOption(fd, SOL_SOCKET, SO_REUSEADDR, 1)
        if address.family == .ipv6 { Socket.setOption(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, 1) }
        guard address.withSockAddr({ bind(fd, $0, $1) }) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw code == EADDRINUSE
                ? .addressInUse(host: host, port: port) : .system(SystemError("bind", code: code))
        }
        guard listen(fd, backlog) == 0, let bound = Socket.localAddress(fd) else {
            let error = SystemError("listen")
            Glibc.close(fd)
            throw .system(error)
        }
        let loop = group.next()
        self.localAddress = bound
        self.loop = loop
        self.group = group
        self.fileDescriptor = fd
        self.setup = ConnectionSetup(options: options)
        self.tls = tls
        self.webSocket = webSocket
        self.onAccept = onAccept
        self.onAcceptFailure = onAcceptFailure
        self.state = LoopBound(ListenerState(), loop: loop)
        // Connections arriving before registration wait in the backlog; registering reports them.
        guard loop.execute({ [self] in register() }) else {
            Glibc.close(fd)
            throw .eventLoopStopped
        }
    }

    /// Stops accepting and frees the port; connections already accepted stay open. Any thread.
    public func close() {
        if loop.inEventLoop {
            closeOnLoop()
        } else {
            loop.execute { [self] in closeOnLoop() }
        }
    }

    private func register() {
        do {
            try loop.register(fileDescriptor, self)
        } catch {
            state.value.isOpen = false
            Glibc.close(fileDescriptor)
        }
    }

    private func closeOnLoop() {
        let state = self.state.value
        guard state.isOpen else { return }
        state.isOpen = false
        if let timer = state.retryTimer { loop.cancelTimer(timer) }
        loop.deregister(fileDescriptor)
        Glibc.close(fileDescriptor)
    }

    private func acceptAvailable() {
        let state = self.state.value
        guard state.isOpen, state.retryTimer == nil else { return }
        for _ in 0..<64 {
            let fd = imsh_accept(fileDescriptor, Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue))
            if fd >= 0, fd < ceiling {
                state.failing = false
                dispatch(fd)
                continue
            }
            // At the ceiling the last descriptors are the process's own (`connectionCeiling`):
            // this connection is closed and the rest wait, as when none are left at all.
            if fd >= 0 { Glibc.close(fd) }
            let code = fd >= 0 ? EMFILE : errno
            switch code {
            case EINTR, ECONNABORTED, EPROTO:
                continue
            case EAGAIN:
                return
            default:
                // A spell counts as reported only once it is: one starting within the interval
                // of the last report is told when the interval has passed, if it lasts.
                let now = ContinuousClock.now
                if !state.failing, state.lastFailureReport.map({ now - $0 >= Self.failureReportInterval }) ?? true {
                    state.failing = true
                    state.lastFailureReport = now
                    onAcceptFailure?(SystemError("accept4", code: code))
                }
                // Out of descriptors or memory: edge-triggered epoll will not tell again, so retry on a timer.
                state.retryTimer = loop.scheduleTimer(after: .milliseconds(100)) { [self] in
                    self.state.value.retryTimer = nil
                    acceptAvailable()
                }
                return
            }
        }
        loop.executeSoon { [self] in acceptAvailable() }
    }

    private func dispatch(_ fd: Int32) {
        Socket.setNoDelay(fd)
        let target = group.next()
        if target === loop {
            adopt(fd, on: target)
        } else if !target.execute({ [self] in adopt(fd, on: target) }) {
            Glibc.close(fd)
        }
    }

    private func adopt(_ fd: Int32, on target: EventLoop) {
        let socket = SocketStream(fileDescriptor: fd)
        var stream: any ByteStream = socket
        if let tls {
            // The handshake runs inside the connection's first reads, as does the WebSocket upgrade.
            guard let secured = try? TLSStream(socket: socket, context: tls.context) else { return }
            stream = secured
        }
        if let webSocket { stream = WebSocketStream(serving: stream, settings: webSocket) }
        guard let remote = Socket.peerAddress(fd) else { return }
        guard let connection = try? Connection(
            stream: stream, remoteAddress: remote, setup: setup, loop: target,
            registered: false)
        else { return }
        onAccept(connection)
    }
}

extension Listener: Selectable {
    func handleEvents(_ events: UInt32) {
        acceptAvailable()
    }

    func loopWillStop() {
        closeOnLoop()
    }
}
