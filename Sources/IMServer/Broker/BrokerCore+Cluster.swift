import IMProtocol
import MQTT

extension BrokerCore {
    /// Removes a connection's presence row once it is closed.
    func leaveCluster(_ broker: BrokerConnection) {
        guard let cluster, let sequence = broker.presenceSequence else { return }
        broker.presenceSequence = nil
        perform({ try await cluster.left(sequence: sequence) }) { _, _ in }
    }

    /// Carries out another node's notice on this node's connections.
    func apply(_ notice: ClusterNotice) {
        switch notice.event {
        case let .deliver(appKey, deliveries):
            notify(appKey: appKey, deliveries)
        case let .login(sequence, appKey, userID, deviceID, platform):
            for broker in online[UserKey(appKey: appKey, userID: userID)] ?? [] {
                guard broker.phase == .online, let login = broker.login,
                      let mine = broker.presenceSequence, mine < sequence else { continue }
                if login.deviceID == deviceID {
                    disconnect(broker, .sessionTakenOver)
                } else if login.platform.rawValue == platform {
                    disconnect(broker, .sessionTakenOver, .otherDeviceLogin)
                }
            }
        case let .disconnect(appKey, userIDs, reasonCode, errorName):
            disconnect(appKey: appKey, userIDs: userIDs, ReasonCode(rawValue: reasonCode), IMErrorName(rawValue: errorName))
        }
    }

    /// After the listener (re)connected, notices may have been missed: every online device
    /// looks at its queue again.
    func catchUpAfterMissedNotices() {
        for brokers in online.values {
            for broker in brokers { pump(broker) }
        }
    }

    /// Keeps this node's heartbeat fresh (every `interval` seconds of maintenance).
    func clusterHeartbeat() {
        guard let cluster else { return }
        let now = clock.wallMilliseconds()
        perform({ try await cluster.heartbeat(now: now) }) { _, _ in }
    }
}
