import IMBench
import IMTransport
import Synchronization

/// The message phase of a server bench: N publishers, each sending to its own receiver, at an
/// offered rate (open loop: each message has a scheduled time, kept even when the publisher
/// falls behind) or saturated (each publisher keeps `window` messages unacknowledged).
///
/// Every publisher is driven on its connection's event loop by loop timers and PUBACK
/// callbacks: the bench adds no thread hop of its own to a message.
struct LoadRun: Sendable {
    var target: LoadTarget
    var publishers: [LoadClient]
    var receivers: [String]
    /// Messages per second over all publishers; nil: saturated.
    var rate: Double?
    var window: Int
    var duration: Duration

    /// Sends for `duration` from `start`; returns when the last message is scheduled.
    func run(ledger: LoadLedger, start: ContinuousClock.Instant) async {
        let end = start + duration
        let finished = Counter()
        for (pair, publisher) in publishers.enumerated() {
            let sender = Sender(
                pair: pair, client: publisher, topic: target.topic(to: receivers[pair]), target: target, ledger: ledger,
                end: end)
            if let rate {
                // Each publisher's share, its sends spread across the interval so they do not come in bursts.
                let interval = Duration.seconds(Double(publishers.count) / rate)
                let first = start + interval * (Double(pair) / Double(publishers.count))
                _ = publisher.loop.execute { sender.tick(next: first, interval: interval, done: { finished.increment() }) }
            } else {
                publisher.onAcknowledged { sender.sendNow() }
                _ = publisher.loop.execute {
                    for _ in 0..<window { sender.sendNow() }
                    finished.increment()
                }
            }
        }
        try? await Task.sleep(until: end)
        while finished.value < publishers.count { try? await Task.sleep(for: .milliseconds(10)) }
        for publisher in publishers { publisher.onAcknowledged {} }
    }
}

/// One publisher's sequence of messages, touched only on its event loop.
private final class Sender: Sendable {
    let pair: Int
    let client: LoadClient
    let topic: String
    let target: LoadTarget
    let ledger: LoadLedger
    let end: ContinuousClock.Instant
    private let sequence = Mutex(0)

    init(pair: Int, client: LoadClient, topic: String, target: LoadTarget, ledger: LoadLedger, end: ContinuousClock.Instant) {
        self.pair = pair
        self.client = client
        self.topic = topic
        self.target = target
        self.ledger = ledger
        self.end = end
    }

    /// Saturated: the next message, scheduled now, unless the run is over.
    func sendNow() {
        let now = ContinuousClock.now
        guard now < end else { return }
        send(scheduled: now)
    }

    /// Open loop: every message due by now, then a timer for the next; `done` once past the end.
    func tick(next: ContinuousClock.Instant, interval: Duration, done: @escaping @Sendable () -> Void) {
        var due = next
        let now = ContinuousClock.now
        while due <= now && due < end {
            send(scheduled: due)
            due += interval
        }
        guard due < end else { return done() }
        _ = client.loop.scheduleTimer(after: now.duration(to: due)) { [self] in
            tick(next: due, interval: interval, done: done)
        }
    }

    private func send(scheduled: ContinuousClock.Instant) {
        let number = sequence.withLock { value -> Int in
            value += 1
            return value
        }
        let nanoseconds = ledger.origin.duration(to: scheduled) / .nanoseconds(1)
        let payload = target.payload(pair: pair, sequence: number, scheduled: Int64(nanoseconds))
        client.publish(payload, topic: topic, id: LoadLedger.id(pair: pair, sequence: number))
    }
}
