import IMCommandLine
import IMEngine
import IMProcess

#if canImport(Glibc)
import Glibc
#endif

/// `imsh bench messages`: N sender→receiver pairs, R messages a second in all, for S seconds;
/// latency from the send call until the message is stored in the receiver's database.
struct MessagesBench: BenchCommand {
    static let spec = CommandSpec.bench(
        "messages",
        summary: "send messages between many pairs of sessions and measure throughput, latency, losses and duplicates",
        usage: "--pairs N [--rate R] [--duration S] [--profile P] [--workers N] [--server embedded|spawn|URL[,URL...] [--app-key K --app-secret S]] [--data DIR] "
            + "[--threads T] [--timeout S] [--json] [--report FILE.html]",
        options: [
            OptionSpec("--pairs", value: "N", help: "N senders (send0...) each writing to its own receiver (recv0...)"),
            OptionSpec("--rate", value: "R", help: "messages per second in all, spread evenly over the senders (default 1000)"),
            OptionSpec("--duration", value: "S", help: "send for S seconds (default 10)"),
            OptionSpec("--profile", value: "P", help: "use profile P's server, app and TLS settings (its accounts are not used)"),
            OptionSpec("--profiles", value: "DIR", help: "where profiles are (else $IMSH_PROFILES, ./profiles, ~/.config/imsh/profiles)"),
        ] + WorkerOptions.options + CommonOptions.appOptions,
        epilogue: """
            Connects the 2N sessions and waits until their databases wrote what connecting left (the
            connection log), then each sender sends at R/N messages a second, each send on its
            schedule (those due within a millisecond together) whether or not the one before
            returned. A message counts as acknowledged on the server's PUBACK (stored by the server)
            and as received once the receiver's session stored it in its database. After sending,
            the bench waits for the rest while they keep coming (until none came for \(Int(drainGrace / .seconds(1))) s, or
            --timeout), then reports: sent, acknowledged, received, lost (acknowledged but never
            received), duplicated (one message stored twice in a receiver's database, or delivered
            twice), throughput (received per second, first send to last receipt), latency
            p50/p90/p99/max, and how long sessions were away while sending and draining (a server
            restarted under the load): each interruption from a session leaving connected to its
            being connected again, their count, median and max. With --server URL,URL,... pair i
            (sender and receiver) uses server i mod count. With --workers N each worker process
            sends over a contiguous share of the pairs from one common start; the report is computed
            over all messages. Without workers it also gives the CPU time and context switches per
            message received that sending and draining cost this process (the sessions and the
            bench's own scheduling; the server too when embedded), with its session engine's event
            loops' share, and a spawned imserver.

            exit status: 0 every message acknowledged and received once, 1 otherwise, 2 usage error
            """)

    /// The pacer wakes at most once per tick: at high rates it then starts a tick's sends at
    /// once, instead of waking Dispatch's timer thread for every send (20,000/s woke it 24,000
    /// times a second). Latency counts from each send call, so a late start does not shorten it.
    static let pacerTick: Duration = .milliseconds(1)

    /// How long the bench's listener lets events gather before it reads them.
    static let listenerPause: Duration = .milliseconds(5)

    /// How long the bench waits after the last send for one more acknowledgement or delivery.
    static let drainGrace: Duration = .seconds(5)

    var common: CommonOptions
    var pairs: Int
    var rate: Double
    var duration: Duration
    var profile: String?
    var profiles: String?
    var spread = WorkerOptions()

    init(_ reader: OptionReader) throws(UsageError) {
        try reader.noPositionals()
        common = try CommonOptions(reader, serverList: true)
        pairs = try reader.required("--pairs", reader.integer("--pairs", in: 1...500_000))
        rate = try reader.number("--rate", in: 0.01...10_000_000) ?? 1000
        duration = try reader.seconds("--duration", in: 0.001...86_400) ?? .seconds(10)
        profile = reader.parsed.value("--profile")
        profiles = reader.parsed.value("--profiles")
        if profile != nil, reader.parsed.value("--server") != nil {
            throw UsageError("give --profile or --server, not both: the profile names its server")
        }
        if profile == nil, profiles != nil { throw UsageError("--profiles only goes with --profile") }
        spread = try WorkerOptions(reader, common: common, profile: profile)
    }

    func run(progress: ProgressLine) async throws(BenchError) -> any BenchReport {
        if let worker = spread.worker { return try await runWorker(worker) }
        if let workers = spread.workers { return try await runWorkers(workers, progress: progress) }
        let target = try profile.map { name throws(BenchError) in try ProfileTarget.load(name, directory: profiles) }
        let tls = target?.profile.tls
        return try await BenchStage.run(common, sessions: 2 * pairs, profile: target, progress: progress) { stage throws(BenchError) in
            let accounts = try await stage.users("send", count: pairs, tls: tls) + stage.users("recv", count: pairs, tls: tls)
            let fleet = try await stage.fleet(accounts)
            try await Self.requireAll(await stage.connect(fleet).snapshot, of: fleet)
            await stage.progress.during("settle", status: { "the databases write what connecting left" }) { await fleet.settle() }
            let placement = await stage.server.placement
            var report = MessagesReport(pairs: pairs, rate: rate, duration: duration, placement: placement)
            (report.ledger, report.stored, report.usage, report.away) = await exchange(
                in: fleet, accounts: accounts, start: .now, progress: stage.progress, placement: placement)
            await fleet.shutdown()
            return report
        }
    }

    /// Fails, the fleet shut down, unless every session connected: a message needs both ends.
    static func requireAll(_ connect: ConnectRecorder.State, of fleet: SessionFleet) async throws(BenchError) {
        guard connect.connected < fleet.sessions.count else { return }
        await fleet.shutdown()
        let failures = connect.failures.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        throw BenchError("only \(connect.connected) of \(fleet.sessions.count) sessions connected (\(failures)); nothing measured")
    }

    /// Sends from the fleet's first half (senders) to its second (their receivers) from `start`,
    /// drains, and reads the receivers' databases back; what sending and draining cost this
    /// process and a spawned server is measured around them, and how long sessions were away
    /// (a server restarted under the load) is watched over them.
    func exchange(
        in fleet: SessionFleet, accounts: [BenchAccount], start: ContinuousClock.Instant, progress: ProgressLine,
        placement: ServerPlacement = .external
    ) async -> (MessageLedger.State, StoredCopies, MessagesUsage, AwayTimes) {
        let count = accounts.count / 2
        let senders = Array(fleet.sessions.prefix(count)), receivers = Array(fleet.sessions.suffix(count))
        let ledger = MessageLedger()
        let listener = listen(senders: senders, receivers: receivers, in: fleet, ledger: ledger)
        let serverPID: pid_t? = if case .spawned(let pid) = placement { pid } else { nil }
        let loops = SessionEngine.eventLoopName + "-"
        let clientBefore = ProcessUsage.of(pid: getpid(), threadPrefix: loops), serverBefore = serverPID.flatMap { ProcessUsage.of(pid: $0) }
        let watch = ConnectionWatch(connectedSessions: fleet.sessions.count)
        watch.watch(fleet.sessions, on: fleet.engine.hub)
        await progress.during("send", status: { ledger.progress }) {
            await send(from: senders, to: accounts.suffix(count).map { $0.userID ?? "" }, start: start, ledger: ledger)
        }
        await progress.during("drain", status: { ledger.progress }) {
            await drain(ledger)
        }
        watch.stop()
        var usage = MessagesUsage(serverInProcess: placement.isInProcess)
        if let clientBefore { usage.client = ProcessUsage.of(pid: getpid(), threadPrefix: loops)?.since(clientBefore) }
        if let serverPID, let serverBefore { usage.server = ProcessUsage.of(pid: serverPID)?.since(serverBefore) }
        let stored = await progress.during("check", status: { "reading the receivers' databases" }) {
            await StoredCopies.count(in: receivers, from: accounts.prefix(count).map { $0.userID ?? "" })
        }
        listener.cancel()
        return (ledger.snapshot, stored, usage, AwayTimes(watch.snapshot))
    }

    /// Reads every receiver's stored messages and every sender's PUBACK reports from the
    /// engine's hub, in one task that reads what gathered every `listenerPause`: a task per
    /// session, or one woken per event, woke a thread per event. Latency runs to the message
    /// event's time (just after the receiver stored it), not to when this task read it.
    ///
    /// The subscription keeps every event (no limit): the bench must count them all, and its
    /// reader only counts, so the queue stays short. Cancel the subscription to end the reader.
    private func listen(senders: [Session], receivers: [Session], in fleet: SessionFleet, ledger: MessageLedger) -> SessionEventSubscription {
        let senderIDs = Set(senders.map(\.id)), receiverIDs = Set(receivers.map(\.id))
        let subscription = fleet.engine.hub.subscribe(limit: .max)
        Task {
            while let event = await subscription.next() {
                switch event.kind {
                case .message(let message) where receiverIDs.contains(event.snapshot.id): ledger.received(message, at: event.at)
                case .sendReport(let report) where senderIDs.contains(event.snapshot.id): ledger.report(report)
                default: break
                }
                if subscription.backlog == 0 { try? await Task.sleep(for: Self.listenerPause) }
            }
        }
        return subscription
    }

    /// Each sender sends to its receiver every N/R seconds, the senders staggered evenly within
    /// that period, until `duration` has passed: send k of the run is due k/R seconds after
    /// `start`, from sender k mod N. A send that falls behind goes at once.
    ///
    /// One pacer sleeps until the next send is due (at most once per `pacerTick`) and
    /// starts every send due by then, each in a task of its own on its sender's event loop
    /// (open loop: a send starts on its schedule whether or not the one before has returned, so
    /// a slow store shows up as latency, not as a lower rate). A sleeping task per sender woke a
    /// thread per send on top of the send's own, and a send from Swift's pool another for its
    /// answer. The sends are tasks of their own, outside any group, and the drain waits for
    /// them (`MessageLedger.inFlight`): a task group keeps a list of its children that each
    /// one's end walked, and past the server's pace hundreds of thousands are under way (3 % of
    /// the bench's CPU at 40,000 sends offered a second).
    private func send(from senders: [Session], to receivers: [String], start: ContinuousClock.Instant, ledger: MessageLedger) async {
        let seconds = BenchClock.seconds(duration)
        // Each send runs on its sender's event loop: its answer then wakes no other thread.
        var executors: [(any TaskExecutor)?] = []
        for sender in senders { executors.append(await sender.taskExecutor) }
        var next = 0
        var woke = start - Self.pacerTick
        while Double(next) / rate < seconds {
            try? await Task.sleep(until: max(start + .seconds(Double(next) / rate), woke + Self.pacerTick), clock: .continuous)
            let now = ContinuousClock.now
            woke = now
            repeat {
                let sender = senders[next % senders.count], receiver = receivers[next % senders.count]
                ledger.sendStarted(at: now)
                Task(executorPreference: executors[next % senders.count]) {
                    do throws(EngineError) {
                        _ = try await sender.send(text: MessageLedger.text(sentAt: BenchClock.nanoseconds()), to: receiver)
                        ledger.sent(at: .now)
                    } catch {
                        ledger.sendFailed(error)
                    }
                }
                next += 1
            } while Double(next) / rate < seconds && start + .seconds(Double(next) / rate) <= now
        }
    }

    /// Waits until every send returned, every sent message is answered and every
    /// acknowledged one received, or until nothing more arrives for the grace (5 s), or until
    /// `--timeout`: an overloaded run still draining its backlog is not counted as losing messages.
    private func drain(_ ledger: MessageLedger) async {
        let end = ContinuousClock.now + common.timeout
        var lastProgress = ContinuousClock.now
        var lastCount = -1
        while ContinuousClock.now < end, ContinuousClock.now - lastProgress < Self.drainGrace {
            if ledger.isSettled { return }
            let count = ledger.answersAndReceipts
            if count != lastCount {
                lastCount = count
                lastProgress = ContinuousClock.now
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
    }
}
