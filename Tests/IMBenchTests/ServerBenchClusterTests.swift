import IMJSON
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `imsh bench server` against three imserver nodes on one PostgreSQL: each message crosses
/// from its publisher's node to its receiver's, and none is lost or doubled.
@Suite(.timeLimit(.minutes(2)))
struct ServerBenchClusterTests {
    @Test func drivesThreeNodesWithEveryMessageCrossingTwo() async throws {
        let directory = TemporaryDirectory()
        let postgres = try await StockPostgres.start(directory: directory.path)
        defer { postgres.stop() }
        let storeURL = try postgres.createDatabase("imserver")
        var nodes: [ImserverProcess] = []
        for index in 1...3 { nodes.append(try await ImserverProcess.start(storeURL: storeURL, nodeName: "node-\(index)")) }
        let targets = nodes.map { "mqtt://127.0.0.1:\($0.mqttPort)" }.joined(separator: ",")
        let run = try await BenchProcess.run([
            "server", "--target", targets, "--app-key", ImserverProcess.appKey, "--app-secret", ImserverProcess.appSecret,
            "--pairs", "6", "--rate", "300", "--duration", "1", "--json",
        ])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let result = try run.result()
        #expect(result["target"] == .string(targets))
        ServerBenchTests().expectConsistent(result)
        for node in nodes { _ = try await node.stop(SIGTERM) }
    }
}
