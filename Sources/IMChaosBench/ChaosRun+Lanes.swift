import IMBench
import IMChaos
import IMEngine

extension ChaosRun {
    /// Runs every lane from `start` to `end`: messages, the repair of stopped devices, node
    /// faults, PostgreSQL faults, crossing logins, API calls, the watch of the nodes; and random
    /// faults on the faulty client proxies. Returns once each lane has undone its last fault.
    func runLanes(from start: ContinuousClock.Instant, until end: ContinuousClock.Instant) async {
        for (index, proxy) in cluster.faultyProxies.enumerated() {
            await proxy.startRandomFaults(RandomFaults(
                seed: settings.seed &+ 300 &+ UInt64(index), every: settings.clientFaultEvery,
                kinds: [.pass, .delay, .blackhole, .close, .cut], delays: 50...500))
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.sendMessages(until: end) }
            group.addTask { await self.repair(until: end) }
            group.addTask { await self.nodeFaults(from: start + .seconds(5), until: end) }
            group.addTask { await self.storeFaults(from: start + .seconds(9), until: end) }
            group.addTask { await self.crossLogins(from: start + .seconds(3), until: end) }
            group.addTask { await self.apiCalls(from: start + .seconds(1), until: end) }
            group.addTask { await self.watchNodes(until: end) }
        }
        for proxy in cluster.faultyProxies {
            await proxy.stopRandomFaults()
            await proxy.set(.pass)
        }
    }

    /// `rate` messages a second, each from a random user's pc to another user, in the order of
    /// the calls (one after the other: a sender's numbers follow its send calls).
    private func sendMessages(until end: ContinuousClock.Instant) async {
        var generator = SeededGenerator(seed: settings.seed &+ 1)
        let interval = Duration.seconds(1 / settings.rate)
        var next = ContinuousClock.now
        while next < end {
            let from = Int(generator.next() % UInt64(settings.users))
            let to = (from + 1 + Int(generator.next() % UInt64(settings.users - 1))) % settings.users
            let sender = users.device(of: from, .pc)
            if !control.withLock({ $0.held.contains(from) }) && isActive(sender) {
                let (number, text) = ledger.nextText(from: sender.userID, to: users.userIDs[to])
                do throws(EngineError) {
                    let message = try await sender.session.send(text: text, to: users.userIDs[to])
                    if let cid = message.cid { ledger.sent(cid: cid, .init(from: sender.userID, to: to, number: number)) }
                } catch {
                    ledger.sendFailed(error)
                }
            }
            next += interval
            try? await Task.sleep(until: next)
        }
    }

    /// Every half second: each user not held gets its pc back, and one of its mobile devices
    /// when neither is on (the one it logged in last); a refused token is renewed first.
    private func repair(until end: ContinuousClock.Instant) async {
        while ContinuousClock.now < end {
            await repairOnce()
            try? await Task.sleep(for: .milliseconds(500))
        }
    }

    /// One round of the repair; with `takeOver`, the preferred mobile device is brought back
    /// even while the other is online (the settling's last phase).
    func repairOnce(takeOver: Bool = false) async {
        let (held, crossing, preferred) = control.withLock { ($0.held, $0.crossing, $0.preferred) }
        for user in 0..<settings.users where !held.contains(user) && !crossing.contains(user) {
            let pc = users.device(of: user, .pc)
            if !isActive(pc) { await reconnect(pc) }
            let mobile1 = users.device(of: user, .mobile1), mobile2 = users.device(of: user, .mobile2)
            let chosen = preferred[user] == .mobile1 ? mobile1 : mobile2
            if !isActive(chosen) && (takeOver || !isActive(mobile1) && !isActive(mobile2)) {
                await reconnect(chosen)
            }
        }
    }

    /// A connect call for `device`, with a new token (issued after its user's last expiry: the
    /// app would fetch one when the server refused the old).
    func reconnect(_ device: ChaosDevice) async {
        await users.renewToken(device)
        await device.session.connect(completion: nil)
    }

    /// One node fault every `nodeFaultEvery`, one node at a time: SIGKILL and a restart 2-6 s
    /// later, SIGSTOP for 12-16 s (past the 10 s after which the other nodes count it gone),
    /// or SIGTERM (its clients sent to another node) and a restart 1-3 s later.
    private func nodeFaults(from first: ContinuousClock.Instant, until end: ContinuousClock.Instant) async {
        var generator = SeededGenerator(seed: settings.seed &+ 2)
        var next = first
        while next < end {
            try? await Task.sleep(until: next)
            let node = cluster.nodes[Int(generator.next() % UInt64(cluster.nodes.count))]
            let kind = generator.next() % 3
            let pause = Duration.milliseconds(Int(generator.next() % 4_000))
            switch kind {
            case 0:
                let span = tally.began("node SIGKILL", "\(node.name) SIGKILL")
                await node.kill()
                try? await Task.sleep(until: min(.now + .seconds(2) + pause, end))
                await restart(node)
                tally.ended(span)
            case 1:
                let span = tally.began("node SIGSTOP", "\(node.name) SIGSTOP")
                control.withLock { _ = $0.frozen.insert(node.index) }
                node.freeze()
                try? await Task.sleep(until: min(.now + .seconds(12) + pause, end))
                node.thaw()
                control.withLock { _ = $0.frozen.remove(node.index) }
                tally.ended(span)
            default:
                let span = tally.began("node SIGTERM", "\(node.name) SIGTERM")
                let sent = ContinuousClock.now
                await node.terminate(within: .seconds(15)) { [tally] in tally.storeCutEnd(node: node.index, sent, .now) }
                try? await Task.sleep(until: min(.now + .seconds(1) + pause / 2, end))
                await restart(node)
                tally.ended(span)
            }
            next = max(next + settings.nodeFaultEvery, .now + .seconds(2))
        }
    }

    /// Starts `node` again, trying for as long as it takes (its store may be out of reach).
    func restart(_ node: ChaosNode) async {
        for attempt in 1...5 {
            do throws(BenchError) {
                try await cluster.start(node)
                return
            } catch {
                control.withLock { $0.apiFailures["\(node.name) restart (attempt \(attempt)): \(error)", default: 0] += 1 }
            }
        }
    }

    /// Every second: a node that ended by itself is recorded, and each node's heap sampled.
    private func watchNodes(until end: ContinuousClock.Instant) async {
        while ContinuousClock.now < end {
            for node in cluster.nodes {
                node.check()
                node.sampleMemory()
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }
}
