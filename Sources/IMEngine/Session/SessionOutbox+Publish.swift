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
        let connection = state.withLock { state in
            state.withLink { link, window -> Connection in
                for message in messages {
                    switch link.admit(message, window: &window) {
                    case .skipped, .held: continue
                    case .publish(let bytes): packets.append(bytes)
                    case .tooLarge(let acknowledgement, let why): tooLarge.append((acknowledgement, why))
                    }
                }
                return link.connection
            }
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
        let released = state.withLock { state in
            state.withLink(on: connection) { link, window -> [StoredMessage] in
                for acknowledgement in acknowledgements {
                    guard let cid = window.acknowledge(acknowledgement.packetIdentifier) else { continue }
                    if acknowledgement.reasonCode.isFailure { failed.append(cid) } else { sent.append(cid) }
                    link.acknowledge(cid)
                    reports.append(SendReport(cid: cid, acknowledgement, notSent: notSent))
                }
                return link.releaseHeld()
            } ?? []
        }
        database.markAcknowledged(sent: sent, failed: failed)
        for report in reports { hub.publish(.sendReport(report), latestOf: session) }
        if !released.isEmpty { publishHere(released) }
    }
}
