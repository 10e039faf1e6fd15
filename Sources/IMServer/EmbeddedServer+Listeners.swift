import IMTransport

extension EmbeddedServer {
    /// Binds the MQTT (TCP and WebSocket) and API listeners, plaintext and TLS; on failure closes those bound before.
    static func openListeners(
        _ options: Options, group: EventLoopGroup, core: LoopBound<BrokerCore>, backend: any ServerAPIBackend,
        connectionOptions: ConnectionOptions, metrics: ([APIRequestTally]) -> ServerMetrics
    ) async throws -> Listeners {
        let limits = options.configuration.limits
        var opened: [@Sendable () async -> Void] = []
        let webSocket = WebSocketSettings(limits: WebSocketLimits(packetSize: limits.maxPacketSize))
        func mqttListener(host: String, port: UInt16, tls: TLSServerIdentity?, webSocket: WebSocketSettings? = nil) throws -> Listener {
            let listener = try makeMQTTListener(host: host, port: port, tls: tls, webSocket: webSocket, group: group, core: core,
                                                options: options, connectionOptions: connectionOptions)
            opened.append { listener.close() }
            return listener
        }
        func apiServer(host: String, port: UInt16, tls: TLSServerIdentity?) throws -> APIServer {
            let api = try APIServer(host: host, port: port, group: group, backend: backend, limits: limits,
                                    options: APIServerOptions(clock: options.clock), tls: tls)
            opened.append { await api.close() }
            return api
        }
        do {
            if (options.mqttTLSPort != nil || options.apiTLSPort != nil || options.secureWebSocketPort != nil) && options.tls == nil {
                throw TransportError.invalidArgument("a TLS listener needs a certificate and key (--cert, --key)")
            }
            let mqtt = try mqttListener(host: options.mqttHost, port: options.mqttPort, tls: nil)
            let api = try apiServer(host: options.apiHost, port: options.apiPort, tls: nil)
            let mqttTLS = try options.mqttTLSPort.map { try mqttListener(host: options.mqttTLSHost, port: $0, tls: options.tls) }
            let apiTLS = try options.apiTLSPort.map { try apiServer(host: options.apiTLSHost, port: $0, tls: options.tls) }
            let ws = try options.webSocketPort.map { try mqttListener(host: options.webSocketHost, port: $0, tls: nil, webSocket: webSocket) }
            let wss = try options.secureWebSocketPort.map {
                try mqttListener(host: options.secureWebSocketHost, port: $0, tls: options.tls, webSocket: webSocket)
            }
            let source = metrics([api.requests] + (apiTLS.map { [$0.requests] } ?? []))
            let metricsServer = try options.metricsPort.map { port in
                let server = try APIServer(
                    host: options.metricsHost, port: port, group: group, responder: MetricsResponder(metrics: source),
                    maxBodyBytes: 0, options: metricsServerOptions(options), tls: nil)
                opened.append { await server.close() }
                return server
            }
            return Listeners(mqtt: mqtt, api: api, mqttTLS: mqttTLS, apiTLS: apiTLS, webSocket: ws, secureWebSocket: wss,
                             metrics: metricsServer)
        } catch {
            for close in opened { await close() }
            throw error
        }
    }

    /// An MQTT listener handing its connections to the broker, over TLS and WebSocket or not.
    static func makeMQTTListener(
        host: String, port: UInt16, tls: TLSServerIdentity?, webSocket: WebSocketSettings?, group: EventLoopGroup,
        core: LoopBound<BrokerCore>, options: Options, connectionOptions: ConnectionOptions
    ) throws -> Listener {
        let transport: MQTTTransport = switch (tls != nil, webSocket != nil) {
        case (false, false): .tcp
        case (true, false): .tls
        case (false, true): .ws
        case (true, true): .wss
        }
        let warning = options.warning
        return try Listener(
            host: host, port: port, backlog: Listener.longestBacklog, group: group, options: connectionOptions, tls: tls,
            webSocket: webSocket,
            onAcceptFailure: { error in
                warning("cannot accept MQTT connections (\(error.reason)): new clients wait until some close; "
                    + "if the open-file limit is the cause, raise it (ulimit -n, LimitNOFILE)")
            }
        ) {
            core.value.accept($0, transport: transport)
        }
    }

    /// The API's connection handling, with caps for a scraper or two and a health checker:
    /// a request must come whole within the API's times, with no body.
    static func metricsServerOptions(_ options: Options) -> APIServerOptions {
        APIServerOptions(maxConnectionsPerAddress: 16, maxConnections: 64, shutdownGracePeriod: .seconds(1), clock: options.clock)
    }
}
