import Foundation
import IMBench
import IMChaos
import IMHTTP
import IMHTTPClient
import IMProtocol
import IMServer
import IMThreads
import IMTransport

/// The service a chaos run drives: imserver nodes on one PostgreSQL, each reaching it through a
/// fault proxy of its own, and reached by clients through two proxies: a clean one (only the
/// node's own faults reach its clients) and a faulty one (random faults on every link).
///
/// Users are split between the two: the bounds that a client's own link would blur (the
/// longest overlap of two mobile devices, how soon a block takes its devices off) are checked
/// on the clean ones, what was lost or duplicated on all.
final class ChaosCluster: Sendable {
    let nodes: [ChaosNode]
    /// Between each node and PostgreSQL, by node.
    let storeProxies: [FaultProxy]
    let cleanProxies: [FaultProxy]
    let faultyProxies: [FaultProxy]
    let appKey = AppSettings.development.appKey
    let appSecret = AppSettings.development.appSecret
    private let apiLoops: EventLoopGroup

    private init(
        nodes: [ChaosNode], storeProxies: [FaultProxy], cleanProxies: [FaultProxy], faultyProxies: [FaultProxy],
        apiLoops: EventLoopGroup
    ) {
        self.nodes = nodes
        self.storeProxies = storeProxies
        self.cleanProxies = cleanProxies
        self.faultyProxies = faultyProxies
        self.apiLoops = apiLoops
    }

    /// Starts `count` nodes on `store` (a PostgreSQL URL), their proxies, and waits until each listens.
    static func start(
        count: Int, store: String, directory: String, seed: UInt64, events: ChaosTally
    ) async throws(BenchError) -> ChaosCluster {
        let database = try ChaosStoreURL(store)
        var stores: [FaultProxy] = [], clean: [FaultProxy] = [], faulty: [FaultProxy] = [], nodes: [ChaosNode] = []
        let loops: EventLoopGroup
        do {
            loops = try EventLoopGroup(threads: 1, name: "imsh-chaos-api")
            for index in 0..<count {
                let storeProxy = try FaultProxy(targetHost: database.host, targetPort: database.port, seed: seed &+ UInt64(index))
                // The node's port is not known yet: the client proxies are pointed at it once it listens.
                let cleanProxy = try FaultProxy(targetPort: 1, seed: seed &+ 100 &+ UInt64(index))
                let faultyProxy = try FaultProxy(targetPort: 1, seed: seed &+ 200 &+ UInt64(index)) { events.record($0) }
                stores.append(storeProxy)
                clean.append(cleanProxy)
                faulty.append(faultyProxy)
                let url = database.pointing(to: "127.0.0.1", port: storeProxy.port)
                nodes.append(ChaosNode(index: index, store: url, advertise: "127.0.0.1:\(cleanProxy.port)", directory: directory))
            }
        } catch {
            throw BenchError("cannot start the fault proxies: \(error)")
        }
        let cluster = ChaosCluster(nodes: nodes, storeProxies: stores, cleanProxies: clean, faultyProxies: faulty, apiLoops: loops)
        do {
            for node in nodes { try await cluster.start(node) }
        } catch {
            await cluster.shutdown()
            throw error
        }
        return cluster
    }

    /// Starts a life of `node` and points its client proxies at it.
    func start(_ node: ChaosNode) async throws(BenchError) {
        let life = try await node.start()
        await cleanProxies[node.index].retarget(port: life.mqttPort)
        await faultyProxies[node.index].retarget(port: life.mqttPort)
    }

    /// The clean or faulty proxies as a session's server list, starting with node `first`.
    func servers(clean: Bool, first: Int) -> [ServerAddress] {
        let proxies = clean ? cleanProxies : faultyProxies
        return (0..<proxies.count).map { offset in
            ServerAddress(host: "127.0.0.1", port: proxies[(first + offset) % proxies.count].port)
        }
    }

    /// Which node a session connected through `server` (a proxy's address) is on, and whether
    /// through the clean proxy.
    func node(of server: ServerAddress) -> (node: Int, clean: Bool)? {
        if let index = cleanProxies.firstIndex(where: { $0.port == server.port }) { return (index, true) }
        if let index = faultyProxies.firstIndex(where: { $0.port == server.port }) { return (index, false) }
        return nil
    }

    /// The node a session's status detail `connected to 127.0.0.1:PORT...` names (by its proxy).
    func node(described detail: String?) -> Int? {
        guard let detail, detail.hasPrefix("connected to "),
              let port = detail.dropFirst("connected to ".count).prefix(while: { $0 != "," }).split(separator: ":").last.flatMap({ UInt16($0) })
        else { return nil }
        return node(of: ServerAddress(host: "127.0.0.1", port: port))?.node
    }

    /// A client of the API of a node that runs and is not frozen, the nodes taken in turn from
    /// `turn`, with the node's name.
    func api(turn: Int, avoiding frozen: Set<Int>) -> (node: String, client: ServerAPIClient)? {
        for offset in 0..<nodes.count {
            let node = nodes[(turn + offset) % nodes.count]
            guard !frozen.contains(node.index), let life = node.life else { continue }
            return (node.name, ServerAPIClient(
                baseURL: HTTPURL(host: "127.0.0.1", port: life.apiPort), appKey: appKey, appSecret: Secret(appSecret),
                loop: apiLoops.next(), timeout: Self.apiTimeout))
        }
        return nil
    }

    /// How long the run waits for an API answer before it tries another node.
    static let apiTimeout: Duration = .seconds(5)

    /// Stops every node (SIGTERM, SIGKILL for one that hangs) and every proxy.
    func shutdown() async {
        for node in nodes { node.thaw() }
        await withTaskGroup(of: Void.self) { group in
            for node in nodes { group.addTask { await node.terminate(within: .seconds(20)) } }
        }
        for proxy in storeProxies + cleanProxies + faultyProxies { await proxy.stop() }
        let loops = apiLoops
        await BlockingCall.run { loops.shutdown() }
    }
}
