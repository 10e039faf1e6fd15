import IMProtocol
import IMServer
import MQTT
import Testing
import TestSupport

/// Nodes of one imserver service on a PostgreSQL of the test's own: each node an embedded
/// server with its own loop, connection pool and listener, all on one fresh database.
final class TestCluster: Sendable {
    /// Holds PostgreSQL's files (and the nodes' unused data directories) until the cluster ends.
    let directory: TemporaryDirectory
    let postgres: StockPostgres
    let storeURL: String
    let nodes: [TestServer]

    private init(directory: TemporaryDirectory, postgres: StockPostgres, storeURL: String, nodes: [TestServer]) {
        self.directory = directory
        self.postgres = postgres
        self.storeURL = storeURL
        self.nodes = nodes
    }

    /// Starts PostgreSQL in a temporary directory and `count` nodes named node-1, node-2, ...
    private static func start(_ count: Int, apps: [AppSettings] = [TestServer.app()]) async throws -> TestCluster {
        let directory = TemporaryDirectory()
        let postgres = try await StockPostgres.start(directory: directory.path)
        let storeURL = try postgres.createDatabase("imserver")
        var nodes: [TestServer] = []
        do {
            for index in 1...count {
                nodes.append(try await TestServer.start(directory: directory, apps: apps, storeURL: storeURL, nodeName: "node-\(index)"))
            }
        } catch {
            for node in nodes { await node.stop() }
            postgres.stop()
            throw error
        }
        return TestCluster(directory: directory, postgres: postgres, storeURL: storeURL, nodes: nodes)
    }

    /// Runs `body` with `count` nodes and stops them and PostgreSQL afterwards, also when it throws.
    static func with(
        _ count: Int, apps: [AppSettings] = [TestServer.app()], _ body: (TestCluster) async throws -> Void
    ) async throws {
        let cluster = try await start(count, apps: apps)
        do {
            try await body(cluster)
        } catch {
            await cluster.stop()
            throw error
        }
        await cluster.stop()
    }

    func stop() async {
        for node in nodes { await node.stop() }
        postgres.stop()
    }

    /// Sends `count` messages (`m1`, `m2`, ...) from `sender` to bob, one at a time, each
    /// received and acknowledged by `receiver` (a device of bob's) before the next.
    static func exchange(_ count: Int, from sender: MQTTTestClient, to receiver: MQTTTestClient, first: Int = 1) async throws {
        for number in first..<first + count {
            #expect(try await sender.sendText("m\(number)", to: "bob", cid: "c\(number)", packetID: UInt16(number)) == .success)
            guard case .publish(let delivered)? = await receiver.next(within: .seconds(3)) else {
                throw TestFailure("message \(number) did not arrive")
            }
            #expect(try TextMessage.decode(delivered.payload).text == "m\(number)")
            try await receiver.send(.puback(PubAck(packetIdentifier: delivered.packetIdentifier)))
        }
    }
}
