import IMHTTP
import IMProtocol
import IMTransport

/// The server API over HTTP/1.1 (contract section 6), on the server's event loops.
///
/// Connections are spread over `group`'s loops; each is served by an `APIConnection`, and
/// the work each request asks for goes through `backend`. Keep-alive and pipelining are
/// supported, bodies are framed by Content-Length only. Create it once the backend is
/// ready; `close()` it before shutting the group down.
public final class APIServer: Sendable {
    /// The bound address; with port 0, the port the kernel picked.
    public let localAddress: SocketAddress
    private let listener: Listener
    private let registry: APIConnectionRegistry
    private let shutdownGracePeriod: Duration
    /// The requests answered, by endpoint and status (`/metrics`).
    let requests: APIRequestTally

    /// Binds `host:port` and starts serving.
    ///
    /// - Parameters:
    ///   - host: a numeric IPv4 or IPv6 address.
    ///   - port: 0 for a free port; read it back from `localAddress`.
    ///   - limits: the server's limits; the API takes `apiMaxBodySize` (413 beyond it).
    ///   - tls: serve HTTPS with this certificate instead of plain HTTP.
    /// - Throws: `addressInUse`, `invalidArgument` for a host name, or the system's error.
    public convenience init(
        host: String = "127.0.0.1", port: UInt16 = 0, group: EventLoopGroup, backend: any ServerAPIBackend,
        limits: ServerLimits = ServerLimits(), options: APIServerOptions = APIServerOptions(),
        tls: TLSServerIdentity? = nil
    ) throws(TransportError) {
        let requests = APIRequestTally()
        let responder = APIResponder(
            backend: backend,
            replayGuard: NonceReplayGuard(capacity: options.maxNoncesPerApp, window: APICredentials.freshnessWindow),
            clock: options.clock, tally: requests)
        try self.init(host: host, port: port, group: group, responder: responder, maxBodyBytes: limits.apiMaxBodySize,
                      options: options, tls: tls, requests: requests)
    }

    /// Binds `host:port` and serves its requests through `responder` (the API's, or another's
    /// such as the metrics endpoints) with this connection handling, its limits and timeouts.
    init(
        host: String, port: UInt16, group: EventLoopGroup, responder: any HTTPRequestResponder, maxBodyBytes: Int,
        options: APIServerOptions, tls: TLSServerIdentity?, requests: APIRequestTally = APIRequestTally()
    ) throws(TransportError) {
        let registry = APIConnectionRegistry(capacity: options.maxConnections, perAddress: options.maxConnectionsPerAddress)
        let httpLimits = HTTPLimits(
            maxHeadBytes: options.maxHeadBytes, maxHeaderCount: options.maxHeaderCount, maxBodyBytes: maxBodyBytes)
        // Answers are small: a client that does not read them is stopped long before the cap.
        let connectionOptions = ConnectionOptions(
            highWaterMark: 64 * 1024, lowWaterMark: 16 * 1024, outboundLimit: 1024 * 1024, framing: .raw)
        listener = try Listener(host: host, port: port, group: group, options: connectionOptions, tls: tls) { connection in
            APIConnection.accept(connection, responder: responder, options: options, limits: httpLimits, registry: registry)
        }
        self.localAddress = listener.localAddress
        self.registry = registry
        self.shutdownGracePeriod = options.shutdownGracePeriod
        self.requests = requests
    }

    /// API connections open now.
    public var connectionCount: Int { registry.count }

    /// Stops accepting, closes idle connections, lets requests under way be answered (with
    /// `Connection: close`), and returns once every connection has closed. Connections still
    /// open after `shutdownGracePeriod` are reset. Call before shutting the loops down.
    public func close() async {
        listener.close()
        registry.stopAll()
        let registry = self.registry, grace = shutdownGracePeriod
        let deadline = Task {
            try await Task.sleep(for: grace)
            registry.abortAll()
        }
        await registry.waitUntilDrained()
        deadline.cancel()
    }
}
