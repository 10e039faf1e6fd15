import IMChaos
import IMProcess
import IMThreads

extension ChaosRun {
    /// One fault of PostgreSQL every `storeFaultEvery` (the next after the last has ended),
    /// each kind in turn in an order drawn from the seed: a restart (fast or immediate, with
    /// `storeRestart`), a node's link to it black-holed for 5-30 s, or slowed by 50-500 ms for 5-20 s.
    func storeFaults(from first: ContinuousClock.Instant, until end: ContinuousClock.Instant) async {
        var generator = SeededGenerator(seed: settings.seed &+ 3)
        var next = first
        // Every kind once, in a drawn order, then again: a run of a few minutes meets each.
        var kinds: [Int] = []
        while next < end {
            try? await Task.sleep(until: next)
            if kinds.isEmpty { kinds = Array(0..<(settings.storeRestart == nil ? 2 : 4)).shuffled(using: &generator) }
            let kind = kinds.removeFirst()
            let node = Int(generator.next() % UInt64(cluster.nodes.count))
            let draw = generator.next()
            let proxy = cluster.storeProxies[node]
            switch kind {
            case 0:
                let length = Duration.seconds(5 + Int(draw % 26))
                let span = tally.began("store link black hole", "n\(node + 1) store link black hole", node: node)
                await proxy.set(.blackhole)
                try? await Task.sleep(until: min(.now + length, end))
                await proxy.set(.pass)
                tally.ended(span)
            case 1:
                let delay = 50 + Int(draw % 451), length = Duration.seconds(5 + Int((draw >> 16) % 16))
                let span = tally.began("store link slowed", "n\(node + 1) store link delay \(delay) ms")
                await proxy.set(.delay(.milliseconds(delay)))
                try? await Task.sleep(until: min(.now + length, end))
                await proxy.set(.pass)
                tally.ended(span)
            default:
                let mode = kind == 2 ? "fast" : "immediate"
                let span = tally.began("PostgreSQL restart \(mode)", "PostgreSQL restart \(mode)")
                await restartStore(mode: mode)
                tally.ended(span)
            }
            next = max(next + settings.storeFaultEvery, .now + .seconds(2))
        }
    }

    /// Runs `storeRestart MODE` through the shell; a failure is recorded, not fatal.
    private func restartStore(mode: String) async {
        guard let command = settings.storeRestart else { return }
        let output = await BlockingCall.run {
            try? ChildProcess.run("/bin/sh", ["-c", "\(command) \(mode)"], timeout: .seconds(60))
        }
        if output?.termination != .exited(0) {
            let said = output.map { String(decoding: $0.stderr, as: UTF8.self) } ?? "could not start"
            control.withLock { $0.apiFailures["PostgreSQL restart \(mode): \(said.prefix(200))", default: 0] += 1 }
        }
    }
}
