import IMTransport

/// An MQTT echo server whose listener speaks TLS.
struct EchoServerOverTLS {
    let group: EventLoopGroup
    let listener: Listener
    var port: UInt16 { listener.localAddress.port }

    init(identity: TLSServerIdentity) throws {
        group = try EventLoopGroup(threads: 1, name: "tls-echo")
        listener = try Listener(group: group, tls: identity) { $0.start(EchoHandler()) }
    }
}
