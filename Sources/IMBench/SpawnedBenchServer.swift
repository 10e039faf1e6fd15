import IMHTTP
import IMLaunch
import IMProfiles
import IMProtocol
import IMServer
import IMHTTPClient
import IMThreads
import IMTransport
#if canImport(Glibc)
import Glibc
#endif

/// A separate imserver that the bench starts, talks to over its HTTP API, kills and restarts.
actor SpawnedBenchServer: BenchServer {
    let appKey = AppSettings.development.appKey
    let servers: [ServerAddress]
    private let dataDirectory: String
    private let apiLoops: EventLoopGroup
    private var process: LaunchedImserver?

    private init(process: LaunchedImserver, dataDirectory: String, apiLoops: EventLoopGroup) {
        self.process = process
        self.dataDirectory = dataDirectory
        self.apiLoops = apiLoops
        servers = [ServerAddress(host: "127.0.0.1", port: process.mqttPort)]
    }

    /// Starts imserver on free ports, its store in `dataDirectory`.
    static func start(dataDirectory: String) async throws(BenchError) -> SpawnedBenchServer {
        let loops: EventLoopGroup
        do {
            loops = try EventLoopGroup(threads: 1, name: "imsh-bench-api")
        } catch {
            throw BenchError("cannot start the server API client: \(error)")
        }
        do {
            let process = try await launch(mqttPort: 0, dataDirectory: dataDirectory)
            return SpawnedBenchServer(process: process, dataDirectory: dataDirectory, apiLoops: loops)
        } catch {
            await Self.shutdown(loops)
            throw error
        }
    }

    var placement: ServerPlacement {
        process.map { .spawned(pid: $0.child.pid) } ?? .external
    }

    func tokenIssuer() throws(BenchError) -> TokenIssuer {
        guard let process else { throw BenchError("imserver is down") }
        let app = AppSettings.development
        return .api(ServerAPIClient(
            baseURL: HTTPURL(host: "127.0.0.1", port: process.apiPort), appKey: app.appKey,
            appSecret: Secret(app.appSecret), loop: apiLoops.next()))
    }

    func takeDown() async {
        await process.take()?.stop(SIGKILL)
    }

    func bringBack() async throws(BenchError) {
        guard process == nil, let port = servers.first?.port else { return }
        process = try await Self.launch(mqttPort: port, dataDirectory: dataDirectory)
    }

    /// SIGTERM: imserver stops gracefully, closing its store.
    func shutdown() async {
        await process.take()?.stop(SIGTERM)
        await Self.shutdown(apiLoops)
    }

    /// Starts the imserver next to imsh with MQTT on 127.0.0.1:`mqttPort` (0 picks one), the
    /// API on a free port, its pipes closed once it listens. A data directory of an older
    /// imserver is brought up to date first: the wait is then the upgrade's.
    private static func launch(mqttPort: UInt16, dataDirectory: String) async throws(BenchError) -> LaunchedImserver {
        let executable = ImserverLauncher.besideThisProgram
        guard access(executable, X_OK) == 0 else {
            throw BenchError("--server spawn needs the imserver executable next to imsh, at \(executable); build it (swift build --product imserver) or use --server embedded")
        }
        do {
            return try await ImserverLauncher(
                executable: executable, options: ["--data", dataDirectory], mqttPort: mqttPort, output: .closedOnceListening
            ).start()
        } catch {
            throw BenchError(error.description)
        }
    }

    private static func shutdown(_ loops: EventLoopGroup) async {
        await BlockingCall.run { loops.shutdown() }
    }
}
