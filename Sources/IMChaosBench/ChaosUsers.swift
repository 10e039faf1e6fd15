import Foundation
import IMBench
import IMEngine
import IMProtocol
import Synchronization

/// The users of a chaos run, each with two mobile devices and a pc, every device a session of
/// one engine with a database of its own; half the users (the odd ones) go through the clean
/// proxies. Each user's devices start on different nodes, so that the two mobile devices' logins
/// cross nodes.
final class ChaosUsers: Sendable {
    static let heartbeat = 4

    let engine: SessionEngine
    let devices: [ChaosDevice]
    let userIDs: [String]
    private let byID: [SessionID: Int]
    private let appKey: String
    private let secret: String
    /// Per user, the time its tokens were last expired (ms), so new ones are issued after it.
    private let expiredAt: Mutex<[Int: Int64]>

    init(count: Int, cluster: ChaosCluster, directory: String) throws(BenchError) {
        appKey = cluster.appKey
        secret = cluster.appSecret
        expiredAt = Mutex([:])
        do {
            engine = try SessionEngine(EngineConfiguration(
                appKey: cluster.appKey, servers: cluster.servers(clean: true, first: 0), dataDirectory: directory,
                callbacks: .immediate, networkMonitor: .none, eventLoopThreads: 2, attemptTimeout: .seconds(5)))
        } catch {
            throw BenchError("the engine cannot start: \(error)")
        }
        userIDs = (0..<count).map { "u\($0)" }
        var devices: [ChaosDevice] = []
        for (user, userID) in userIDs.enumerated() {
            let clean = user % 2 == 1
            for (offset, role) in ChaosDevice.Role.allCases.enumerated() {
                var parameters = ConnectParameters(
                    token: try Self.token(appKey: appKey, secret: secret, userID: userID, notBefore: 0), userID: userID,
                    deviceID: "\(userID)-\(role.rawValue)", platform: role.isMobile ? .mobile : .pc,
                    heartbeat: Self.heartbeat, jitter: 0.2, dataDirectory: "\(directory)/\(userID)-\(role.rawValue)",
                    label: "\(userID)/\(role.rawValue)")
                parameters.servers = cluster.servers(clean: clean, first: user + offset)
                devices.append(ChaosDevice(user: user, userID: userID, role: role, session: engine.makeSession(parameters), clean: clean))
            }
        }
        self.devices = devices
        byID = Dictionary(uniqueKeysWithValues: devices.enumerated().map { ($1.session.id, $0) })
    }

    func device(_ id: SessionID) -> ChaosDevice? { byID[id].map { devices[$0] } }

    /// The user's devices: mobile1, mobile2, pc.
    func devices(of user: Int) -> ArraySlice<ChaosDevice> { devices[(user * 3)..<(user * 3 + 3)] }

    func device(of user: Int, _ role: ChaosDevice.Role) -> ChaosDevice {
        devices[user * 3 + ChaosDevice.Role.allCases.firstIndex(of: role)!]
    }

    /// The user's tokens issued before `milliseconds` no longer log in: later logins need new ones.
    func tokensExpired(of user: Int, at milliseconds: Int64) {
        expiredAt.withLock { $0[user] = milliseconds }
    }

    /// Gives `device` a new token, issued after its user's last expiry.
    func renewToken(_ device: ChaosDevice) async {
        let notBefore = expiredAt.withLock { $0[device.user] ?? 0 }
        if let token = try? Self.token(appKey: appKey, secret: secret, userID: device.userID, notBefore: notBefore + 1) {
            try? await device.session.updateToken(token)
        }
    }

    private static func token(appKey: String, secret: String, userID: String, notBefore: Int64) throws(BenchError) -> String {
        do {
            return try Token.issue(appKey: appKey, secret: secret, userID: userID, issuedAt: max(WallClock.milliseconds(), notBefore))
        } catch {
            throw BenchError("cannot sign a token for \(userID): \(error)")
        }
    }

    func shutdown() async {
        await engine.shutdown()
    }
}
