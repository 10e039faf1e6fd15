import IMProcess

extension ServerMetrics {
    /// The broker's families: connections, logins, disconnects, messages, store commits.
    static func write(_ broker: BrokerSnapshot, into text: inout PrometheusText) {
        text.family("imserver_connections", .gauge,
                    "Open MQTT connections by transport and protocol version (pending: no CONNECT yet).")
        for transport in MQTTTransport.allCases {
            for version in BrokerSnapshot.protocolVersions {
                let count = broker.connections[BrokerSnapshot.ConnectionKind(transport: transport, protocolVersion: version)] ?? 0
                text.sample("imserver_connections", [("transport", transport.label), ("protocol", version)], count)
            }
        }
        let counters = broker.counters
        text.family("imserver_logins_total", .counter, "CONNECTs answered, by result: accepted, or the refusal's reason.")
        text.sample("imserver_logins_total", [("result", "accepted"), ("code", "0x00")], counters.loginsAccepted)
        for (reason, count) in sorted(counters.loginsRefused) {
            let labels = reason.labels
            text.sample("imserver_logins_total", [("result", labels[1].1), labels[0]], count)
        }
        text.family("imserver_disconnects_total", .counter,
                    "DISCONNECTs the server sent (kicks, takeovers, blocks, keep-alive timeouts, shutdown), by reason.")
        for (reason, count) in sorted(counters.disconnects) {
            text.sample("imserver_disconnects_total", reason.labels, count)
        }
        text.single("imserver_messages_received_total", .counter, "PUBLISHes received from logged-in clients.", counters.messagesReceived)
        text.single("imserver_messages_stored_total", .counter, "Messages stored for their recipients (clients', the API's, wills).",
                    counters.messagesStored)
        text.single("imserver_messages_delivered_total", .counter, "PUBLISHes sent to devices, resends included.", counters.messagesDelivered)
        text.single("imserver_messages_acknowledged_total", .counter, "PUBACKs received for deliveries.", counters.messagesAcknowledged)
        text.single("imserver_queue_reads_total", .counter,
                    "Reads of a device's queue begun (a message not sent as it was stored is read with one).", counters.queueReads)
        text.family("imserver_messages_refused_total", .counter, "Messages not stored, by the reason sent back.")
        for (reason, count) in sorted(counters.messagesRefused) {
            text.sample("imserver_messages_refused_total", reason.labels, count)
        }
        text.histogram("imserver_store_commit_duration_seconds",
                       "Time the message lane's store transactions took (PostgreSQL: each job of a turn's calls, pool wait included).",
                       broker.commits.seconds)
        text.histogram("imserver_store_commit_calls", "Store calls (stores, queue reads, acknowledgements) per transaction.",
                       broker.commits.batchSizes)
    }

    /// The usual `process_*` families.
    static func write(_ process: ProcessFigures, into text: inout PrometheusText) {
        text.family("process_cpu_seconds_total", .counter, "Total user and system CPU time spent in seconds.")
        text.sample("process_cpu_seconds_total", [], process.cpuSeconds)
        text.single("process_resident_memory_bytes", .gauge, "Resident memory size in bytes.", process.residentBytes)
        text.single("process_virtual_memory_bytes", .gauge, "Virtual memory size in bytes.", process.virtualBytes)
        text.single("process_open_fds", .gauge, "Number of open file descriptors.", process.openDescriptors)
        text.single("process_max_fds", .gauge, "Maximum number of open file descriptors.", process.maxDescriptors)
        text.family("process_start_time_seconds", .gauge, "Start time of the process since unix epoch in seconds.")
        text.sample("process_start_time_seconds", [], process.startTimeSeconds)
    }

    private static func sorted(_ counts: [BrokerCounters.Reason: Int]) -> [(BrokerCounters.Reason, Int)] {
        counts.map { ($0.key, $0.value) }.sorted { ($0.0.code, $0.0.name ?? "") < ($1.0.code, $1.0.name ?? "") }
    }
}
