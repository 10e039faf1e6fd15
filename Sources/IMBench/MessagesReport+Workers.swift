import IMJSON

extension MessagesReport {
    /// One worker process of a `--workers` run, as the report names it.
    struct Worker: Sendable {
        var share: WorkerShare
        var pid: Int32
        var sent: Int
        var received: Int
    }

    /// Takes the workers' ledgers and stored copies as this report's: counts added up, message
    /// ids and latencies over all pairs, times from the common start.
    mutating func merge(_ outcomes: [MessagesOutcome]) {
        var merged = MessageLedger.State()
        for outcome in outcomes {
            let one = outcome.ledger
            merged.started += one.started
            merged.sent += one.sent
            merged.sendErrors.merge(one.sendErrors, uniquingKeysWith: +)
            merged.acknowledged += one.acknowledged
            merged.refused.merge(one.refused, uniquingKeysWith: +)
            merged.received += one.received
            merged.redelivered += one.redelivered
            merged.latencies += one.latencies
            merged.latencyTimes += one.latencyTimes
            merged.acknowledgedIDs.formUnion(one.acknowledgedIDs)
            merged.receivedIDs.formUnion(one.receivedIDs)
            merged.firstSend = [merged.firstSend, one.firstSend].compactMap { $0 }.min()
            merged.lastSend = [merged.lastSend, one.lastSend].compactMap { $0 }.max()
            merged.lastReceive = [merged.lastReceive, one.lastReceive].compactMap { $0 }.max()
            stored.rows += outcome.stored.rows
            stored.duplicates += outcome.stored.duplicates
            stored.unreadable += outcome.stored.unreadable
            away.merge(outcome.away)
            workers.append(Worker(share: outcome.share, pid: outcome.pid, sent: one.sent, received: one.received))
        }
        // The per-second pictures want the latencies in the order they were measured.
        let ordered = zip(merged.latencyTimes, merged.latencies).sorted { $0.0 < $1.0 }
        merged.latencyTimes = ordered.map(\.0)
        merged.latencies = ordered.map(\.1)
        ledger = merged
    }

    var workersJSON: JSONValue {
        .array(workers.map { worker in
            .object(JSONObject([
                ("worker", .string(worker.share.description)), ("pid", .integer(Int64(worker.pid))),
                ("sent", .integer(Int64(worker.sent))), ("received", .integer(Int64(worker.received))),
            ]))
        })
    }

    var workerLines: [String] {
        workers.enumerated().map { index, worker in
            (index == 0 ? "workers      " : "             ") + "\(worker.share) pid \(worker.pid): \(worker.sent) sent, \(worker.received) received"
        }
    }
}
