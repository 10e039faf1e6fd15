import IMStore
import IMProtocol
import MQTT

extension BrokerCore {
    /// Reads the user's standing for a login whose token checked out, with the other logins
    /// waiting at the same time; `continueLogin` follows for each.
    func readStanding(_ pending: LoginBatches.Pending) {
        loginBatches.standing.add(pending)
        flushStandingReads()
    }

    private func flushStandingReads() {
        guard let batch = loginBatches.standing.next() else { return }
        let users = batch.map { (appKey: $0.broker.login?.appKey ?? "", userID: $0.claims.userID) }
        let store = self.store
        let cluster = self.cluster
        let now = clock.wallMilliseconds()
        perform({
            let states = try await store.userStates(users)
            let elsewhere = try await cluster?.onlineElsewhere(users, now: now) ?? users.map { _ in [] }
            return (states, elsewhere)
        }) { core, result in
            core.loginBatches.standing.finish()
            for (index, pending) in batch.enumerated() where pending.broker.phase == .authenticating {
                switch result {
                case .success(let (states, elsewhere)): core.continueLogin(pending, state: states[index], elsewhere: elsewhere[index])
                case .failure: core.refuse(pending.broker, .serverUnavailable, nil)
                }
            }
            core.flushStandingReads()
        }
    }

    /// Records the device of an admitted login, with the others admitted meanwhile;
    /// `completeLogin` (CONNACK) follows for each.
    func registerDevice(_ pending: LoginBatches.Pending) {
        loginBatches.registrations.add(pending)
        flushRegistrations()
    }

    private func flushRegistrations() {
        guard let batch = loginBatches.registrations.next() else { return }
        let registrations = batch.compactMap { pending in
            pending.broker.login.map {
                DeviceRegistration(appKey: $0.appKey, userID: $0.userID, deviceID: $0.deviceID, platform: $0.platform)
            }
        }
        let store = self.store
        let now = clock.wallMilliseconds()
        perform({ try await store.registerDevices(registrations, now: now) }) { core, result in
            core.loginBatches.registrations.finish()
            for pending in batch where pending.broker.phase == .authenticating {
                guard case .success = result else {
                    core.removeFromOnline(pending.broker)
                    core.refuse(pending.broker, .serverUnavailable, nil)
                    continue
                }
                core.completeLogin(pending.broker, pending.connect)
            }
            core.flushRegistrations()
        }
    }
}
