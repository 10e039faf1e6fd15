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
        let cluster = self.cluster.nodes
        let now = clock.wallMilliseconds()
        // Devices online on other nodes matter only to a login that may have to give way to
        // them (the policy's one refusal); the others' evictions happen on those nodes.
        let mayGiveWay = batch.map { pending in
            guard cluster != nil, let login = policyLogin(pending) else { return false }
            return login.isReconnection && login.kickEnable && apps[pending.broker.login?.appKey ?? ""]?.clientControlsKickPolicy == true
        }
        perform({
            let states = try await store.userStates(users)
            let asked = zip(users, mayGiveWay).filter(\.1).map(\.0)
            var found = try await cluster?.onlineElsewhere(asked, now: now) ?? []
            let elsewhere = mayGiveWay.map { $0 && !found.isEmpty ? found.removeFirst() : [] }
            return (states, elsewhere)
        }) { core, result in
            core.loginBatches.standing.finish()
            let changed = core.loginBatches.changedDuringRead
            core.loginBatches.changedDuringRead = []
            for (index, pending) in batch.enumerated() where pending.broker.stage == .authenticating {
                if let login = pending.broker.login, changed.contains(UserKey(appKey: login.appKey, userID: login.userID)) {
                    core.loginBatches.standing.add(pending)
                    continue
                }
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
        let admitted = batch.compactMap { pending in
            pending.broker.login.map {
                (pending, DeviceRegistration(appKey: $0.appKey, userID: $0.userID, deviceID: $0.deviceID, platform: $0.platform))
            }
        }
        let registrations = admitted.map(\.1)
        let connections = admitted.map(\.0.broker.id)
        let (store, cluster) = (self.store, self.cluster.nodes)
        let now = clock.wallMilliseconds()
        // With other nodes, the logins join the cluster before their CONNACKs, so that every
        // node sees a device online as soon as the device does.
        perform({ () async throws -> [Int64]? in
            _ = try await store.registerDevices(registrations, now: now)
            return try await cluster?.joined(Array(zip(registrations, connections)), now: now)
        }) { core, result in
            core.loginBatches.registrations.finish()
            for (index, (pending, _)) in admitted.enumerated() {
                let sequence = (try? result.get())??[index]
                pending.broker.recordPresence(sequence)
                guard pending.broker.stage == .authenticating else {
                    // It ended while the rows were written: they must not outlive it.
                    core.cluster.leave(pending.broker)
                    continue
                }
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
