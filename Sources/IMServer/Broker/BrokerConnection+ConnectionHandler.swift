import IMTransport
import MQTT

extension BrokerConnection {
    func connection(_ connection: Connection, didReceive frame: [UInt8]) {
        guard stage != .closed else { return }
        let packet: Packet
        do {
            packet = try read(frame)
        } catch {
            refuseMalformed(error)
            return
        }
        switch (state, packet) {
        case (.connecting, .connect(let connect)):
            core.logins.connect(self, connect)
        case (.connecting, _), (.authenticating, _):
            // MQTT: the first packet must be CONNECT; nothing else is read before CONNACK.
            close(.abortive)
        case (.online, .publish(let publish)):
            core.publishing.receive(publish, from: self)
        case (.online, .puback(let ack)):
            core.deliveries.acknowledged(self, ack.packetIdentifier)
        case (.online, .subscribe(let subscribe)):
            core.deliveries.subscribe(self, subscribe)
        case (.online, .unsubscribe(let unsubscribe)):
            core.deliveries.unsubscribe(self, unsubscribe)
        case (.online, .pingreq):
            send(.pingresp)
        case (.online, .disconnect(let disconnect)):
            core.logins.notePush(self, disconnect)
            if disconnect.reasonCode == .normalDisconnection { dropWill() }
            core.removeFromOnline(self)
            close(.graceful)
        case (.online, .connect):
            core.disconnect(self, .protocolError)
        case (.online, .pubrec), (.online, .pubrel), (.online, .pubcomp):
            core.disconnect(self, .qosNotSupported)
        default:
            core.disconnect(self, .protocolError)
        }
    }

    /// QoS 0 deliveries wait for room in the outgoing buffer rather than for PUBACKs.
    func connectionDidBecomeWritable(_ connection: Connection) {
        if delivery?.qos == .atMostOnce { core.deliveries.pump(self) }
    }

    func connection(_ connection: Connection, didCloseWith error: TransportError?) {
        transportClosed()
        core.connectionClosed(self)
    }

    /// A packet over our Maximum Packet Size or with a bad length: say so (0x95 / 0x81) before closing.
    func connection(_ connection: Connection, didRefuseFraming error: FrameError) {
        guard stage != .closed else { return }
        refuseMalformed(MQTTError(error))
    }

    /// A packet that does not decode: CONNACK before login, DISCONNECT after, with its reason (0x81/0x82/...).
    private func refuseMalformed(_ error: MQTTError) {
        if stage == .connecting {
            send(.connack(ConnAck(reasonCode: error.reasonCode, properties: [.reasonString(error.message)])))
            core.counters.loginsRefused[BrokerCounters.Reason(error.reasonCode), default: 0] += 1
            close(.graceful)
        } else {
            core.disconnect(self, error.reasonCode)
        }
    }
}
