import IMTransport

extension BrokerCore {
    /// Every second: notices `imserver app` edits made by another process and reloads the apps,
    /// and keeps the links with the other nodes alive.
    /// Every two seconds, with other nodes: the node's heartbeat.
    /// Every minute: removes messages past their app's retention.
    func startMaintenance() {
        var ticks = 0
        func tick() {
            guard !shuttingDown else { return }
            ticks += 1
            reloadAppsIfChanged()
            cluster.links?.tick()
            if ticks % 2 == 0 { cluster.heartbeat() }
            if ticks % 60 == 0 { purgeExpiredMessages() }
            loop.scheduleTimer(after: .seconds(1), tick)
        }
        loop.scheduleTimer(after: .seconds(1), tick)
    }

    /// Reads the apps again when another process changed the store; with `always`, whatever
    /// the counter says (after a change this server made itself, which leaves the counter).
    func reloadAppsIfChanged(always: Bool = false) {
        let store = self.store
        let configured = apps.configured
        let seen = apps.lastExternalChange
        perform({ () async throws -> (Int64, [AppSettings]?) in
            let counter = try await store.externalChangeCounter()
            return (counter, counter == seen && !always ? nil : try await store.effectiveApps(configured: configured))
        }) { core, result in
            // A reload meanwhile brought other apps: they win, and the next tick reads the overrides again.
            guard case .success(let (counter, apps)) = result, core.apps.configured == configured else { return }
            core.apps.reloaded(counter: counter, effective: apps)
        }
    }

    func purgeExpiredMessages() {
        let store = self.store
        let apps = self.apps.all
        let now = clock.wallMilliseconds()
        perform({
            try await store.purgeExpired(apps: apps, now: now)
            try await store.forgetNonces(expiredAt: now)
        }) { _, _ in }
    }
}
