import IMChaos
import IMEngine
import IMHTTPClient
import IMProtocol

extension ChaosRun {
    /// Every `crossLoginEvery`, a user's mobile devices: both log in at once, each to its own
    /// first node (the one online signs out first); or the one offline logs in and takes over.
    func crossLogins(from first: ContinuousClock.Instant, until end: ContinuousClock.Instant) async {
        var generator = SeededGenerator(seed: settings.seed &+ 4)
        var next = first
        while next < end {
            try? await Task.sleep(until: next)
            next += settings.crossLoginEvery
            let user = Int(generator.next() % UInt64(settings.users)), both = generator.next() % 2 == 0
            let claimed = control.withLock { control -> Bool in
                guard !control.held.contains(user), !control.crossing.contains(user) else { return false }
                control.crossing.insert(user)
                return true
            }
            guard claimed else { continue }
            let mobile1 = users.device(of: user, .mobile1), mobile2 = users.device(of: user, .mobile2)
            if both {
                tally.began("mobile logins at once", "\(users.userIDs[user]) mobile logins at once", lasting: false)
                for device in [mobile1, mobile2] where isActive(device) { await device.session.disconnect() }
                async let one: Void = reconnect(mobile1)
                async let two: Void = reconnect(mobile2)
                _ = await (one, two)
            } else {
                let (online, offline) = isActive(mobile1) ? (mobile1, mobile2) : (mobile2, mobile1)
                tally.began("mobile takeover", "\(online.name) taken over", lasting: false)
                await reconnect(offline)
            }
            // The repair brings back the one that was logged in last if both end up kicked.
            control.withLock { control in
                control.preferred[user] = both ? (generator.next() % 2 == 0 ? .mobile1 : .mobile2) : nil
                control.crossing.remove(user)
            }
            if !both {
                let winner = isActive(mobile1) && !isActive(mobile2) ? ChaosDevice.Role.mobile1 : .mobile2
                control.withLock { $0.preferred[user] = winner }
            }
        }
    }

    /// Every `apiCallEvery`, an API call on a random user through a live node: a block or a
    /// deactivation lifted 3-8 s after its answer, tokens expired, or a kick.
    func apiCalls(from first: ContinuousClock.Instant, until end: ContinuousClock.Instant) async {
        var generator = SeededGenerator(seed: settings.seed &+ 5)
        var next = first
        await withTaskGroup(of: Void.self) { group in
            while next < end {
                try? await Task.sleep(until: next)
                next += settings.apiCallEvery
                let user = Int(generator.next() % UInt64(settings.users)), kind = generator.next() % 4
                let lift = Duration.milliseconds(3_000 + Int(generator.next() % 5_000))
                let claimed = control.withLock { control -> Bool in
                    guard !control.held.contains(user), !control.crossing.contains(user) else { return false }
                    if kind < 2 { control.held.insert(user) }
                    return true
                }
                guard claimed else { continue }
                let userID = users.userIDs[user]
                switch kind {
                case 0, 1:
                    group.addTask { await self.hold(user, deactivate: kind == 1, for: lift) }
                case 2:
                    tally.began("tokens expired", "\(userID) tokens expired", lasting: false)
                    let time = WallClock.milliseconds()
                    users.tokensExpired(of: user, at: time)
                    _ = await callAPI("expire", user: user) { api throws(ServerAPIError) in try await api.expireTokens(userIDs: [userID], before: time) }
                default:
                    tally.began("kick", "\(userID) kicked", lasting: false)
                    _ = await callAPI("kick", user: user) { api throws(ServerAPIError) in try await api.kick(userIDs: [userID]) }
                }
            }
        }
    }

    /// Blocks or deactivates `user`, keeps it so for `length` after the answer, then lifts it.
    private func hold(_ user: Int, deactivate: Bool, for length: Duration) async {
        let userID = users.userIDs[user], kind = deactivate ? "deactivation" : "block"
        let span = tally.began(kind, "\(userID) \(kind)")
        let answered = await callAPI(kind, user: user) { api throws(ServerAPIError) in
            if deactivate { try await api.deactivate(userIDs: [userID]) } else { try await api.block(userIDs: [userID], minutes: 1) }
        }
        if let answered {
            presence.held(user, kind: kind, at: answered, devices: users.devices(of: user).map(\.name))
            try? await Task.sleep(until: answered + length)
        }
        presence.lifted(user, at: .now, clean: user % 2 == 1)
        let lifted = await lift(user, deactivation: deactivate)
        tally.ended(span)
        control.withLock { control in
            control.held.remove(user)
            // Lifted again once the faults are over: the user is not back until then.
            if lifted == nil { control.unlifted[user] = deactivate }
        }
    }

    /// Lifts `user`'s block or deactivation; returns when a node answered, nil when none did.
    func lift(_ user: Int, deactivation: Bool) async -> ContinuousClock.Instant? {
        let userID = users.userIDs[user]
        return await callAPI(deactivation ? "lift deactivation" : "lift block", user: user) { api throws(ServerAPIError) in
            if deactivation { try await api.reactivate(userIDs: [userID]) } else { try await api.unblock(userIDs: [userID]) }
        }
    }

    /// Calls the API through the nodes in turn (those running and not frozen) until one answers,
    /// for up to 30 s; returns when it answered, nil when none did. Each attempt goes in the
    /// user's log: a call that got no answer may still be carried out later, and the report
    /// names it beside a user who did not come back.
    func callAPI(
        _ what: String, user: Int, _ call: @Sendable (ServerAPIClient) async throws(ServerAPIError) -> Void
    ) async -> ContinuousClock.Instant? {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let target = control.withLock { control -> (node: String, client: ServerAPIClient)? in
                control.apiTurn += 1
                return cluster.api(turn: control.apiTurn, avoiding: control.frozen)
            }
            if let (node, client) = target {
                let started = ContinuousClock.now
                do throws(ServerAPIError) {
                    try await call(client)
                    logAPI(user, at: started, "\(what) via \(node) answered")
                    return .now
                } catch {
                    logAPI(user, at: started, "\(what) via \(node) failed: \(String(describing: error).prefix(60))")
                    control.withLock { $0.apiFailures["API \(what): \(error)".prefix(160).description, default: 0] += 1 }
                }
            }
            try? await Task.sleep(for: .milliseconds(300))
        }
        logAPI(user, at: .now, "\(what) given up: no node answered within 30 s")
        return nil
    }

    private func logAPI(_ user: Int, at instant: ContinuousClock.Instant, _ text: String) {
        control.withLock { $0.userLog[user, default: []].append((instant, text)) }
    }
}
