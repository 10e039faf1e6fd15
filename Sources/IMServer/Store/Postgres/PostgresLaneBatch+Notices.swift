extension PostgresLaneBatch {
    /// The deliver notices of what `outcome` stored, as the store function writes them when it
    /// notifies: for a call of up to `PostgresStoreFunction.inlineBatchLimit` messages, one a
    /// message with the message and its devices' chain; for a larger one, one per app naming
    /// the devices, whose nodes read their queues. `at`: now, in µs since the epoch.
    func notices(_ outcome: Outcome, node: String, at: Int64) -> [ClusterNotice] {
        var notices: [ClusterNotice] = []
        for (index, group) in stores.enumerated() {
            guard case .success(let results)? = outcome.stores[index] else { continue }
            let inline = group.messages.count <= PostgresStoreFunction.inlineBatchLimit
            var named: [(appKey: String, deliveries: [Delivery])] = []
            for (message, stored) in zip(group.messages, results) where !stored.deliveries.isEmpty {
                if inline {
                    notices.append(ClusterNotice(node: node, event: .deliver(
                        appKey: message.appKey, stored.deliveries, message: QueuedMessage(message, stored: stored), at: at)))
                    continue
                }
                let devices = stored.deliveries.map { Delivery(userID: $0.userID, deviceID: $0.deviceID) }
                if let index = named.firstIndex(where: { $0.appKey == message.appKey }) {
                    named[index].deliveries += devices
                } else {
                    named.append((message.appKey, devices))
                }
            }
            notices += named.map { ClusterNotice(node: node, event: .deliver(appKey: $0.appKey, $0.deliveries, message: nil, at: at)) }
        }
        return notices
    }
}
