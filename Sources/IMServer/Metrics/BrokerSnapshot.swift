/// The broker's figures at one moment, copied on its loop for a scrape.
struct BrokerSnapshot: Sendable {
    /// Open MQTT connections by listener and protocol label (`5`, `3.1.1`, or `pending` before CONNECT).
    struct ConnectionKind: Hashable, Sendable {
        var transport: MQTTTransport
        var protocolVersion: String
    }

    var counters: BrokerCounters
    var connections: [ConnectionKind: Int]
    var commits: StoreCommitStatistics
    /// How long other nodes' deliver notices took to arrive (`ClusterLink.noticeDelays`); nil on a single node.
    var noticeDelays: MetricsHistogram?
    /// The links with the other nodes (`NodeLinks`); nil on a single node.
    var links: NodeLinks.Figures?

    /// The protocol labels, in the order the exposition lists them.
    static let protocolVersions = ["5", "3.1.1", "pending"]
}
