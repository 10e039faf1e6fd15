import IMProcess
import IMThreads
import IMTransport

/// Gathers what `/metrics` and `/readyz` report: the broker's figures from its loop, the
/// store's and the cluster's, the API's request counts and the process's own.
///
/// Nothing is counted here: a scrape reads what the loop, the API and the cluster count
/// anyway, hopping onto the loop once for the broker's part.
struct ServerMetrics: Sendable {
    let core: LoopBound<BrokerCore>
    let loop: EventLoop
    let store: any ServerStore
    let cluster: PostgresCluster?
    /// The plaintext API's tally and the HTTPS API's, if it listens.
    let apiRequests: [APIRequestTally]
    let readiness: ServerReadiness
    let clock: ServerClock

    /// How long a scrape or `/readyz` waits for a store call: a store out of reach (a
    /// PostgreSQL that does not answer) must not hold them, nor pile up their calls.
    static let storeProbeTimeout: Duration = .seconds(2)

    /// The exposition, or nil when the loop has stopped.
    func exposition() async -> String? {
        let core = self.core
        let broker = await withCheckedContinuation { (continuation: CheckedContinuation<BrokerSnapshot?, Never>) in
            if !loop.execute({ continuation.resume(returning: core.value.snapshot()) }) {
                continuation.resume(returning: nil)
            }
        }
        guard let broker else { return nil }
        var text = PrometheusText()
        Self.write(broker, into: &text)
        let store = self.store
        if case .success(let queued) = await Self.probe({ try await store.queuedDeliveryCount() }) {
            text.single("imserver_queued_deliveries", .gauge, "Deliveries waiting in device queues (one per message and device).", queued)
        }
        writeAPI(into: &text)
        await writeCluster(broker, into: &text)
        if let process = await BlockingCall.run({ ProcessFigures.current() }) {
            Self.write(process, into: &text)
        }
        return text.text
    }

    /// Why the server does not take logins now (draining, or its store out of reach), or nil when it does.
    func notReadyReason() async -> String? {
        if let reason = readiness.drainingReason { return "draining (\(reason)): no new logins" }
        let store = self.store
        guard case .failure(let failure) = await Self.probe({ try await store.externalChangeCounter() }) else { return nil }
        return "the store is out of reach: \(failure.reason)"
    }

    /// `body`'s value, or why there is none: its error, or no answer within `storeProbeTimeout`
    /// (the call goes on, and its late answer is dropped).
    static func probe<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async -> Result<T, StoreProbeFailure> {
        let answer = OneShot<Result<T, StoreProbeFailure>>()
        Task {
            do {
                answer.fulfil(.success(try await body()))
            } catch {
                answer.fulfil(.failure(StoreProbeFailure(reason: "\(error)")))
            }
        }
        let timeout = Task {
            try await Task.sleep(for: storeProbeTimeout)
            answer.fulfil(.failure(StoreProbeFailure(reason: "no answer within \(storeProbeTimeout)")))
        }
        defer { timeout.cancel() }
        return await answer.wait()
    }

    private func writeAPI(into text: inout PrometheusText) {
        var merged: [APIRequestTally.Key: Int] = [:]
        for tally in apiRequests { merged.merge(tally.snapshot, uniquingKeysWith: +) }
        text.family("imserver_api_requests_total", .counter, "Server API requests answered, by endpoint (other: none) and HTTP status.")
        for (key, count) in merged.sorted(by: { ($0.key.path, $0.key.status) < ($1.key.path, $1.key.status) }) {
            text.sample("imserver_api_requests_total", [("path", key.path), ("status", String(key.status))], count)
        }
    }

    private func writeCluster(_ broker: BrokerSnapshot, into text: inout PrometheusText) async {
        guard let cluster else { return }
        let now = clock.wallMilliseconds()
        if case .success(let live) = await Self.probe({ try await cluster.liveNodeCount(now: now) }) {
            text.single("imserver_cluster_live_nodes", .gauge, "Nodes on the store whose heartbeat is recent, this one included.", live)
        }
        text.single("imserver_cluster_notices_sent_total", .counter,
                    "Notices this node sent the others through NOTIFY (logins while not every node is linked, API actions; not the store's message notices).",
                    cluster.noticesSent.load(ordering: .relaxed))
        text.single("imserver_cluster_notices_received_total", .counter, "Notices of other nodes this node received through NOTIFY.",
                    cluster.noticesReceived.load(ordering: .relaxed))
        if let noticeDelays = broker.noticeDelays {
            text.histogram("imserver_cluster_notice_delay_seconds",
                           "From a message notice's sending (by the storing node's clock: in the storing transaction, or after its commit over a link) to its arrival on this node's loop.",
                           noticeDelays)
        }
        if let links = broker.links {
            text.family("imserver_cluster_links", .gauge,
                        "Links with other nodes: in, nodes linked to this one (it sends them the notices of its messages and logins); out, nodes this one is linked to.")
            text.sample("imserver_cluster_links", [("direction", "in")], links.linkedIn)
            text.sample("imserver_cluster_links", [("direction", "out")], links.linkedOut)
            text.single("imserver_cluster_links_carry_all", .gauge,
                        "1 while every live node is linked to this one, so that its stores and logins leave NOTIFY out; else 0.", links.carriesAll ? 1 : 0)
            text.single("imserver_cluster_link_notices_sent_total", .counter, "Notices of messages and logins sent over links, one per notice and node.",
                        links.noticesSent)
            text.single("imserver_cluster_link_notices_received_total", .counter, "Notices of other nodes' messages and logins received over links.",
                        links.noticesReceived)
            text.single("imserver_cluster_links_lost_total", .counter, "Links, either way, that went down after their handshake.", links.linksLost)
            text.single("imserver_cluster_catch_ups_total", .counter,
                        "Reads of every online device's queue because a link's notices may have been missed (the link back, or down for 6 s).",
                        links.catchUps)
        }
    }
}
