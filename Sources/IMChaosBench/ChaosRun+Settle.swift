import IMEngine

extension ChaosRun {
    /// After the faults: every node up and thawed, every link clear; then every user's pc and
    /// one mobile device back until each holds every acknowledged message and every message has
    /// its answer; then each user's other mobile device takes over and gets its queue too.
    /// Returns false when that did not happen within `settleLimit`.
    func settle() async -> Bool {
        for proxy in cluster.storeProxies + cluster.cleanProxies { await proxy.set(.pass) }
        for node in cluster.nodes {
            node.thaw()
            if node.life == nil { await restart(node) }
        }
        // A lift that no node answered during the faults: the user is still held.
        let unlifted = control.withLock { $0.unlifted }
        for (user, deactivation) in unlifted.sorted(by: { $0.key < $1.key }) where await lift(user, deactivation: deactivation) != nil {
            control.withLock { _ = $0.unlifted.removeValue(forKey: user) }
        }
        let start = ContinuousClock.now, deadline = start + settings.settleLimit
        let online: @Sendable (Int) -> [String] = { [users, presence] user in
            users.devices(of: user).map(\.name).filter { presence.isOnline($0) }
        }
        guard await waitUntil(deadline, takeOver: false, { [self] in
            ledger.unanswered.isEmpty && ledger.missing(devices: online).isEmpty && everyUserOnline()
        }) else { return false }
        control.withLock { $0.settlePhases.append(.now - start) }
        // The mobile device offline takes over: its queue is the last to check.
        control.withLock { $0.takingOver = true }
        for user in 0..<settings.users {
            let mobile1 = users.device(of: user, .mobile1), mobile2 = users.device(of: user, .mobile2)
            let offline = presence.isOnline(mobile1.name) ? mobile2 : mobile1
            control.withLock { $0.preferred[user] = offline.role }
            await reconnect(offline)
        }
        let all: @Sendable (Int) -> [String] = { [users] user in users.devices(of: user).map(\.name) }
        let settled = await waitUntil(deadline, takeOver: true, { [self] in
            ledger.missing(devices: all).isEmpty && everyUserOnline()
        })
        if settled { control.withLock { $0.settlePhases.append(.now - start) } }
        return settled
    }

    /// Whether each user's pc and one mobile device are online.
    private func everyUserOnline() -> Bool {
        (0..<settings.users).allSatisfy { user in
            let names = users.devices(of: user).map(\.name)
            return presence.isOnline(names[2]) && (presence.isOnline(names[0]) || presence.isOnline(names[1]))
        }
    }

    /// Repairs stopped devices every second until `condition` holds or `deadline` passes.
    private func waitUntil(
        _ deadline: ContinuousClock.Instant, takeOver: Bool, _ condition: @Sendable () -> Bool
    ) async -> Bool {
        while ContinuousClock.now < deadline {
            if condition() { return true }
            await repairOnce(takeOver: takeOver)
            try? await Task.sleep(for: .seconds(1))
        }
        return condition()
    }
}
