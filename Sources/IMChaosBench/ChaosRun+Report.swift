import IMBench

extension ChaosRun {
    /// The report of the run that started at `origin`, with every violation found.
    func report(origin: ContinuousClock.Instant, settled: Bool) -> ChaosReport {
        var report = ChaosReport(seed: settings.seed, duration: settings.duration, nodes: settings.nodes, users: settings.users)
        report.settled = settled
        report.settlePhases = control.withLock { $0.settlePhases }
        report.faults = tally.counts
        let messages = ledger.snapshot
        report.sent = messages.sent.count
        report.acknowledged = messages.acknowledged.count
        report.refused = messages.refused.values.reduce(0, +)
        report.sendErrors = messages.sendErrors.values.reduce(0, +)
        report.delivered = messages.received
        report.duplicated = messages.duplicates.count
        report.droppedResends = messages.droppedResends
        report.outOfOrder = messages.outOfOrder.count
        // Unsettled, a device that is not back was never asked for its queue: what it lacks is
        // counted apart, and the users not back say why (their devices' last words, their API calls).
        let back: @Sendable (String) -> Bool = { [presence] name in settled || presence.isOnline(name) }
        let missing = ledger.missing { [users] user in users.devices(of: user).map(\.name).filter(back) }
        report.lost = Set(missing.map { $0.split(separator: " ")[1] }).count
        report.unchecked = ledger.missing { [users] user in users.devices(of: user).map(\.name).filter { !back($0) } }.count
        var violations: [String] = []
        if !settled {
            violations.append("the devices did not all come back with every message within \(settings.settleLimit)")
            violations += usersNotBack(origin: origin)
        }
        violations += missing.prefix(10).map { "lost: \($0)" }
        violations += messages.duplicates.prefix(10).map { "duplicated: \($0)" }
        violations += messages.outOfOrder.prefix(10).map { "out of order: \($0)" }
        violations += unansweredMessages(origin: origin)
        violations += messages.refused.map { "refused \($0.value) times: \($0.key)" }

        let presence = presence.snapshot
        report.longestOverlap = presence.clean.length > .milliseconds(50) ? .zero : presence.clean.length
        report.overlapUser = presence.clean.length > .milliseconds(50) ? "" : presence.clean.user
        report.longestFaultyOverlap = presence.faulty.length
        // A device on a frozen or killed node learns that it was taken over from its heartbeat;
        // one on a node cut off from PostgreSQL, when the node is back (imserver(8)).
        for overlap in presence.longOverlaps {
            guard let at = overlap.at else { continue }
            let end = at + overlap.length
            let down = tally.nodeDown(at - ChaosSettings.heartbeatLimit, end)
                && overlap.length <= ChaosSettings.heartbeatLimit + ChaosSettings.overlapBound
            let cutOff = overlap.nodes.contains { node in
                tally.storeCutEnd(node: node, at, end).map { end <= $0 + ChaosSettings.overlapBound } ?? false
            }
            if down || cutOff {
                report.frozenOverlap = max(report.frozenOverlap, overlap.length)
                continue
            }
            if overlap.length > report.longestOverlap { (report.longestOverlap, report.overlapUser) = (overlap.length, overlap.user) }
            guard overlap.length > ChaosSettings.overlapBound else { continue }
            violations.append("two mobile devices of \(overlap.user) online together for \(Units.secondsText(overlap.length)) "
                + "from \(Units.oneDecimal(Units.seconds(origin.duration(to: at)))) s (faults then: "
                + tally.around(at, at + overlap.length, origin: origin).joined(separator: "; ") + ")")
        }
        violations += presence.loginsAfterHold.prefix(10).map { "login after a hold: \($0)" }
        var stays = 0
        for stay in presence.stays.sorted(by: { $0.stay > $1.stay }) {
            // What imserver(8) promises: a node cut off from PostgreSQL acts on the hold once it is
            // back; a device on a node frozen or killed learns of its end from its heartbeat.
            let end = stay.answered + stay.stay
            let cutOff = stay.node.flatMap { tally.storeCutEnd(node: $0, stay.answered, end) }.map { end <= $0 + ChaosSettings.holdBound }
            let down = tally.nodeDown(stay.answered - ChaosSettings.heartbeatLimit, end)
                && stay.stay <= ChaosSettings.heartbeatLimit + ChaosSettings.holdBound
            if cutOff == true || down {
                report.excusedStay = max(report.excusedStay, stay.stay)
                continue
            }
            report.longestStay = max(report.longestStay, stay.stay)
            guard stay.stay > ChaosSettings.holdBound, stays < 5 else { continue }
            stays += 1
            violations.append("\(stay.device) online \(Units.secondsText(stay.stay)) after its \(stay.kind) answered at "
                + "\(Units.oneDecimal(Units.seconds(origin.duration(to: stay.answered)))) s (faults then: "
                + tally.around(stay.answered, stay.answered + stay.stay, origin: origin).joined(separator: "; ") + ")")
        }
        for node in cluster.nodes {
            violations += node.unexpectedEnds.map { end in
                "\(end.text) at \(Units.oneDecimal(Units.seconds(origin.duration(to: end.at)))) s (faults then: "
                    + tally.around(end.at - .seconds(20), end.at, origin: origin).joined(separator: "; ") + ")"
            }
            let samples = node.heapSamples
            let peak = samples.map(\.kilobytes).max() ?? 0
            report.nodeHeaps.append("\(node.name) \(Units.mebibytesText(kilobytes: peak)) (\(node.lives) lives)")
            if peak > Self.heapBound { violations.append("\(node.name)'s heap reached \(Units.mebibytesText(kilobytes: peak))") }
        }
        report.troubles = control.withLock { $0.apiFailures }.sorted { $0.value > $1.value }.map { "\($0.key) (\($0.value) times)" }
        report.violations = violations
        return report
    }

    /// The most heap (RssAnon) a node may hold in a run of a few hundred devices: about ten
    /// times what one holds after its start (KiB).
    static let heapBound = 256 * 1024
}
