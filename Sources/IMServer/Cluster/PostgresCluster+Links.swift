import IMEncoding

extension PostgresCluster {
    /// The database's secret that linked nodes prove they know (`NodeLinkHandshake`).
    func linkSecret() async throws(ServerStoreError) -> [UInt8] {
        let location = store.location
        return try await store.read("read the link secret") { connection in
            guard let text = try connection.execute("SELECT secret FROM link_secret WHERE id = 1").rows.first?[0].string,
                  let secret = Hex.decode(text), secret.count >= 16
            else { throw ServerStoreError.failed(operation: "read the link secret", path: location, reason: "link_secret has no usable row") }
            return secret
        }
    }

    /// Sends notices through NOTIFY, in one statement: for nodes not linked when they were
    /// committed (`NodeLinks.publish`). A deliver notice too long for NOTIFY's 8,000 bytes goes
    /// as notices of 40 devices without the message, which those nodes read.
    func notify(_ notices: [ClusterNotice]) async throws(ServerStoreError) {
        var payloads: [String] = []
        for notice in notices {
            let payload = notice.encoded()
            guard payload.utf8.count > 7_600, case let .deliver(appKey, deliveries, _, at) = notice.event else {
                payloads.append(payload)
                continue
            }
            for start in stride(from: 0, to: deliveries.count, by: 40) {
                let part = deliveries[start..<min(start + 40, deliveries.count)].map { Delivery(userID: $0.userID, deviceID: $0.deviceID) }
                payloads.append(ClusterNotice(node: notice.node, event: .deliver(appKey: appKey, part, message: nil, at: at)).encoded())
            }
        }
        try await store.read("notify \(notices.count) notices") { [payloads] connection in
            try PostgresServerStore.notify(connection, payloads)
        }
    }
}
