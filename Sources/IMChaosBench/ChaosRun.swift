import Foundation
import IMBench
import IMChaos
import IMEngine
import Synchronization

/// One chaos run: the cluster, the users' devices, the ledgers, and what the run's lanes of
/// faults hold at the moment (users held by a block, nodes frozen, the mobile device each user
/// logged in last).
final class ChaosRun: Sendable {
    struct Control: Sendable {
        /// Users blocked or deactivated (or being so): nothing sent from them, nothing reconnected.
        var held: Set<Int> = []
        /// Users whose mobile devices are logging in at once: the repair leaves them alone.
        var crossing: Set<Int> = []
        var frozen: Set<Int> = []
        /// The mobile device each user logged in last: the one the repair brings back.
        var preferred: [Int: ChaosDevice.Role] = [:]
        var apiTurn = 0
        var apiFailures: [String: Int] = [:]
        /// How long the settling's phases took: each user's pc and a mobile device back, then the
        /// other mobile device; for telling a slow machine from a device kept out.
        var settlePhases: [Duration] = []
        /// Whether the settling has come to its last phase: each user's other mobile device takes over.
        var takingOver = false
        /// Users whose block (false) or deactivation (true) no node lifted within 30 s.
        var unlifted: [Int: Bool] = [:]
        /// Per user, each API call on it: when it started and how it ended, for the report.
        var userLog: [Int: [(at: ContinuousClock.Instant, text: String)]] = [:]
    }

    let settings: ChaosSettings
    let directory: String
    let cluster: ChaosCluster
    let users: ChaosUsers
    let ledger = ChaosLedger()
    let presence = ChaosPresence()
    let tally: ChaosTally
    let control = Mutex(Control())
    private let listener: SessionEventSubscription

    private init(settings: ChaosSettings, directory: String, cluster: ChaosCluster, users: ChaosUsers, tally: ChaosTally) {
        self.settings = settings
        self.directory = directory
        self.cluster = cluster
        self.users = users
        self.tally = tally
        listener = users.engine.hub.subscribe(limit: .max)
    }

    /// Starts the nodes and their proxies, makes the users, and logs every device in once, so that
    /// the service knows all three devices of each user before the first message.
    static func start(_ settings: ChaosSettings, directory: String, progress: ProgressLine) async throws(BenchError) -> ChaosRun {
        let tally = ChaosTally()
        let cluster = try await progress.during("nodes", status: { "starting \(settings.nodes) nodes" }) { () async throws(BenchError) in
            try await ChaosCluster.start(
                count: settings.nodes, store: settings.store, directory: directory, seed: settings.seed, events: tally)
        }
        let users: ChaosUsers
        do {
            users = try ChaosUsers(count: settings.users, cluster: cluster, directory: directory + "/clients")
        } catch {
            await cluster.shutdown()
            throw error
        }
        let run = ChaosRun(settings: settings, directory: directory, cluster: cluster, users: users, tally: tally)
        run.listen()
        let connected = Counter()
        let failures = await progress.during("login", status: { "\(connected.value)/\(3 * settings.users) devices logged in" }) {
            await run.logInEveryDevice(connected: connected)
        }
        if !failures.isEmpty {
            await run.shutdown()
            throw BenchError("\(failures.count) devices could not log in: \(failures.prefix(3).joined(separator: "; "))")
        }
        return run
    }

    /// Each user's first mobile device, then the second (which takes over from it), and the pc.
    private func logInEveryDevice(connected: Counter) async -> [String] {
        await withTaskGroup(of: [String].self) { group in
            for user in 0..<settings.users {
                group.addTask { [users] in
                    var failures: [String] = []
                    for role in ChaosDevice.Role.allCases {
                        let device = users.device(of: user, role)
                        do throws(EngineError) {
                            _ = try await device.session.connect()
                            connected.increment()
                        } catch {
                            failures.append("\(device.name): \(error)")
                        }
                    }
                    return failures
                }
                if user % 20 == 19 { try? await Task.sleep(for: .milliseconds(100)) }
            }
            var all: [String] = []
            for await failures in group { all += failures }
            control.withLock { control in
                for user in 0..<settings.users { control.preferred[user] = .mobile2 }
            }
            return all
        }
    }

    /// Hands the hub's events to the ledgers, in one task that reads what gathered every 5 ms.
    private func listen() {
        let listener = self.listener, users = self.users, ledger = self.ledger, presence = self.presence, cluster = self.cluster
        Task {
            while let event = await listener.next() {
                guard let device = users.device(event.session) else { continue }
                switch event.kind {
                case .status:
                    let online = event.snapshot.status == .connected
                    presence.changed(device, online: online, node: online ? cluster.node(described: event.snapshot.lastChange?.detail) : nil, at: event.at)
                case .closed: presence.changed(device, online: false, at: event.at)
                case .message(let message): ledger.received(message, by: device.name)
                case .duplicateDropped: ledger.droppedResend()
                case .sendReport(let report): ledger.report(report)
                default: break
                }
                if listener.backlog == 0 { try? await Task.sleep(for: .milliseconds(5)) }
            }
        }
    }

    /// Whether the device has a connection or is after one, from the hub's latest snapshot.
    func isActive(_ device: ChaosDevice) -> Bool {
        switch users.engine.hub.snapshot(of: device.session.id)?.state {
        case .preparing?, .connecting?, .waiting?, .connected?: return true
        default: return false
        }
    }

    /// The device's status now, from the hub's latest snapshot.
    func status(_ device: ChaosDevice) -> ConnectionStatus {
        users.engine.hub.snapshot(of: device.session.id)?.status ?? .unknown
    }

    /// Signs every device out, stops the engine, the nodes and the proxies.
    func shutdown() async {
        await users.shutdown()
        listener.cancel()
        await cluster.shutdown()
    }
}
