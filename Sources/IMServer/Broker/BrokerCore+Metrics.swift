extension BrokerCore {
    /// Copies the counters and counts the open connections: one pass over them, on the loop,
    /// at a scrape rather than a counter kept on every accept and close.
    func snapshot() -> BrokerSnapshot {
        var connections: [BrokerSnapshot.ConnectionKind: Int] = [:]
        for broker in self.connections.values {
            let version = broker.stage == .connecting ? "pending" : broker.speaks311 ? "3.1.1" : "5"
            connections[BrokerSnapshot.ConnectionKind(transport: broker.transport, protocolVersion: version), default: 0] += 1
        }
        return BrokerSnapshot(counters: counters, connections: connections, commits: lane.commitStatistics,
                              noticeDelays: cluster.nodes == nil ? nil : cluster.noticeDelays, links: cluster.links?.figures)
    }
}
