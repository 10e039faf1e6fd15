import IMProtocol
import IMTransport
import MQTT

extension SessionOutbox {
    /// On the loop: publishes `messages` on the live connection, in order, unless they already
    /// went out on it; nothing happens without one (they wait in the database for the next).
    ///
    /// Past the server's Receive Maximum a message waits until a PUBACK frees room. A message
    /// whose PUBLISH exceeds the server's Maximum Packet Size is not sent (MQTT forbids it, and
    /// the server would drop the connection, again at every resend): it fails at once with 0x95
    /// packet too large, its report saying it was not sent, with both sizes.
    func publishHere(_ messages: [StoredMessage]) {
        var packets: [[UInt8]] = []
        var tooLarge: [(PubAck, String)] = []
        let connection = state.withLock { state -> Connection? in
            guard var link = state.link else { return nil }
            defer { state.link = link }
            for message in messages {
                guard let cid = message.cid, !link.published.contains(cid) else { continue }
                guard link.hasRoom else {
                    if !link.held.contains(where: { $0.cid == cid }) { link.held.append(message) }
                    continue
                }
                guard let (id, isResend) = state.window.packetID(for: cid) else { continue }
                link.published.insert(cid)
                let bytes = Packet.publish(SessionPackets.publish(message, packetID: id, dup: isResend)).encoded()
                if let limit = link.maximumPacketSize, bytes.count > limit {
                    let why = "as a PUBLISH it is \(bytes.count) bytes, over the server's Maximum Packet Size of \(limit) bytes (0x95)"
                    tooLarge.append((PubAck(packetIdentifier: id, reasonCode: .packetTooLarge), why))
                    continue
                }
                link.inFlight.insert(cid)
                packets.append(bytes)
            }
            return link.connection
        }
        guard let connection else { return }
        for bytes in packets { _ = try? connection.send(bytes) }
        for (acknowledgement, why) in tooLarge { acknowledgedHere([acknowledgement], on: connection, notSent: why) }
    }

    /// On the loop: the server's PUBACKs on `connection` (it stored these messages, or refused
    /// them for good). Records them, reports them, and sends what waited for the room they made.
    /// `notSent` says why the engine did not send them, when it answered for the server.
    func acknowledgedHere(_ acknowledgements: [PubAck], on connection: Connection, notSent: String? = nil) {
        var reports: [SendReport] = []
        var sent: [String] = []
        var failed: [String] = []
        let released = state.withLock { state -> [StoredMessage] in
            guard var link = state.link, link.connection === connection else { return [] }
            defer { state.link = link }
            for acknowledgement in acknowledgements {
                guard let cid = state.window.acknowledge(acknowledgement.packetIdentifier) else { continue }
                if acknowledgement.reasonCode.isFailure { failed.append(cid) } else { sent.append(cid) }
                link.inFlight.remove(cid)
                reports.append(SendReport(cid: cid, acknowledgement, notSent: notSent))
            }
            var room = link.receiveMaximum - link.inFlight.count
            var released: [StoredMessage] = []
            while room > 0, !link.held.isEmpty {
                released.append(link.held.removeFirst())
                room -= 1
            }
            return released
        }
        database.markAcknowledged(sent: sent, failed: failed)
        for report in reports { hub.publish(.sendReport(report), latestOf: session) }
        if !released.isEmpty { publishHere(released) }
    }
}
