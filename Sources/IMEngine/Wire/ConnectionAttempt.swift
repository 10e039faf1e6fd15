import IMProtocol
import IMTransport
import MQTT

/// One connection attempt of a session: the environment's servers raced with a stagger,
/// CONNACK redirects followed, the outcome read the way contract section 2 says.
struct ConnectionAttempt: Sendable {
    /// In order of preference.
    var servers: [ServerAddress]
    var loop: EventLoop
    /// Bounds TCP connect and proxy negotiation for one server.
    var options: ConnectOptions
    /// How long a server has before the next one is tried as well.
    var stagger: Duration
    /// How long a server has to answer CONNECT with CONNACK.
    var connackTimeout: Duration
    var maximumRedirects: Int
    /// How `mqtts://` servers (and TLS redirects) are verified; ALPN "mqtt" is added.
    var tls: TLSClientConfiguration

    /// Races the servers with `connect` (an encoded CONNECT); the first CONNACK 0x00 wins.
    func run(connect: [UInt8]) async -> AttemptOutcome {
        var servers = self.servers
        var redirects = 0
        while true {
            switch await race(servers, connect: connect, viaRedirect: redirects > 0) {
            case .outcome(let outcome):
                return outcome
            case .redirect(let target):
                guard redirects < maximumRedirects else {
                    return .failed(.retryable("more than \(maximumRedirects) redirects; last to \(target)"), unreachable: false)
                }
                redirects += 1
                servers = [target]
            }
        }
    }

    private enum RaceResult: Sendable {
        case outcome(AttemptOutcome)
        case redirect(ServerAddress)
    }

    private enum RaceEvent: Sendable {
        case stagger
        case dialed(ServerAddress, DialResult)
    }

    private func race(_ servers: [ServerAddress], connect: [UInt8], viaRedirect: Bool) async -> RaceResult {
        await withTaskGroup(of: RaceEvent.self) { group in
            var launched = 0
            var running = 0
            var failures: [(ServerAddress, DialResult)] = []
            var result: RaceResult?
            let stagger = self.stagger
            func launchNext() {
                let server = servers[launched]
                launched += 1
                running += 1
                group.addTask { .dialed(server, await dial(server, connect: connect, viaRedirect: viaRedirect)) }
                if launched < servers.count {
                    group.addTask {
                        try? await Task.sleep(for: stagger)
                        return .stagger
                    }
                }
            }
            launchNext()
            while result == nil, let event = await group.next() {
                switch event {
                case .stagger:
                    // After an early launch (all running servers failed), a timer may find nothing left.
                    if launched < servers.count { launchNext() }
                case .dialed(let server, let dialed):
                    running -= 1
                    result = decide(server, dialed)
                    if result == nil {
                        failures.append((server, dialed))
                        if running == 0 {
                            if launched < servers.count { launchNext() } else { result = .outcome(Self.summary(of: failures)) }
                        }
                    }
                }
            }
            group.cancelAll()
            // Servers that accepted after the winner: leave them politely.
            while let event = await group.next() {
                if case .dialed(_, .accepted(let late)) = event { late.abandon() }
            }
            return result ?? .outcome(Self.summary(of: failures))
        }
    }

    /// Ends the race on a win, a redirect or a no-retry refusal; nil lets the others go on.
    private func decide(_ server: ServerAddress, _ dialed: DialResult) -> RaceResult? {
        switch dialed {
        case .accepted(let established):
            return .outcome(.connected(established))
        case .refused(let connack):
            let name = connack.properties.userProperty(IMUserProperty.error).map(IMErrorName.init(rawValue:))
            switch ServerVerdict.connack(connack.reasonCode, imError: name, serverReference: connack.properties.serverReference) {
            case .redirect(let reference):
                guard let target = Self.firstAddress(in: reference, from: server) else { return nil }
                return .redirect(target)
            case .failure(.terminal(var termination)):
                if let reason = connack.properties.reasonString { termination.detail += " (\(reason))" }
                return .outcome(.failed(.terminal(termination), unreachable: false))
            case .failure(.retryable), .failure(.moved):
                return nil
            }
        case .unusable(let failure):
            if let webSocketFailure = failure.permanentWebSocketFailure {
                let termination = SessionTermination(.unconnected, .webSocketFailure, detail: "\(server): \(webSocketFailure)")
                return .outcome(.failed(.terminal(termination), unreachable: false))
            }
            guard let tlsFailure = failure.permanentTLSFailure else { return nil }
            // Certificates and files do not change between attempts: retrying cannot help.
            var detail = tlsFailure.description
            if server.webSocketPath != nil && tlsFailure.kind == .peerNotTLS { detail = detail.replacing("use mqtt://", with: "use ws://") }
            let termination = SessionTermination(.unconnected, .tlsFailure, detail: "\(server): \(detail)")
            return .outcome(.failed(.terminal(termination), unreachable: false))
        }
    }

    /// The first `host:port` of a Server Reference (a space-separated list); a server reached
    /// over TLS redirects over TLS unless the reference says `mqtt://`, and one reached over
    /// WebSocket redirects over WebSocket (same path) unless the reference names a scheme.
    static func firstAddress(in reference: String, from server: ServerAddress? = nil) -> ServerAddress? {
        guard let first = reference.split(separator: " ").first else { return nil }
        guard var target = try? ServerAddress(parsing: String(first), tls: server?.tls ?? false) else { return nil }
        if !first.contains("://") { target.webSocketPath = server?.webSocketPath }
        return target
    }

    /// Every server failed: a proxy failure stops the session, anything else is retried.
    private static func summary(of failures: [(ServerAddress, DialResult)]) -> AttemptOutcome {
        // Each server named once (most failures name their address already), each hint said once.
        let details = FailureText.joined(failures.map { server, result in
            var text = result.text
            let endpoint = TransportError.endpoint(server.host, server.port)
            if !text.reason.contains(endpoint) { text.reason = "\(server): \(text.reason)" }
            return text
        })
        let proxyFailed = failures.contains { if case .unusable(.transport(let error)) = $0.1 { error.isProxyFailure } else { false } }
        if proxyFailed {
            return .failed(.terminal(SessionTermination(.proxyUnavailable, .proxyUnavailable, detail: details)), unreachable: true)
        }
        let unreachable = failures.allSatisfy { if case .unusable(let failure) = $0.1 { failure.isTransport } else { false } }
        return .failed(.retryable(details.isEmpty ? "no server to try" : details), unreachable: unreachable)
    }
}
