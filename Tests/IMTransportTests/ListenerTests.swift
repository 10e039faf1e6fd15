import IMTransport
import Synchronization
import Testing
import TestSupport

struct ListenerTests {
    @Test func spreadsAcceptedConnectionsOverTheGroupsLoops() async throws {
        let loops = Mutex<[ObjectIdentifier]>([])
        let onAccept: @Sendable (Connection) -> Void = { connection in
            loops.withLock { $0.append(ObjectIdentifier(connection.loop)) }
            #expect(connection.loop.inEventLoop)
            connection.start(EchoHandler())
        }
        let group = try EventLoopGroup(threads: 2, name: "server")
        defer { group.shutdown() }
        let listener = try Listener(group: group, onAccept: onAccept)
        #expect(listener.localAddress.host == "127.0.0.1" && listener.localAddress.port != 0)
        let client = try EventLoop(name: "client")
        defer { client.shutdown() }
        let port = listener.localAddress.port
        try await withTimeout(.seconds(20)) {
            for _ in 0..<4 {
                let connection = try await connect(port: port, on: client)
                try await expectEcho(of: [TestFrames.pingRequest], over: connection)
                connection.close()
            }
        }
        #expect(Set(loops.withLock { $0 }).count == 2)
    }

    @Test func refusesAPortInUseAndANameInsteadOfAnAddress() throws {
        let taken = try RawSocket.listen()
        defer { taken.close() }
        let group = try EventLoopGroup(name: "server")
        defer { group.shutdown() }
        #expect(throws: TransportError.addressInUse(host: "127.0.0.1", port: taken.port)) {
            try Listener(port: taken.port, group: group) { _ in }
        }
        #expect(throws: TransportError.invalidArgument(
            "cannot listen on 'localhost': give a numeric IPv4 or IPv6 address")) {
            try Listener(host: "localhost", group: group) { _ in }
        }
    }
}
