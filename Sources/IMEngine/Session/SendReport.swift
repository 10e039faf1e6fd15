import MQTT

/// The server's answer to one sent message (its PUBACK).
public struct SendReport: Sendable, Equatable, CustomStringConvertible {
    /// The client message id `send` assigned.
    public var cid: String
    /// 0x00 when the server stored the message; 0x87 (not authorized), 0x99 (bad payload), ...
    public var reasonCode: ReasonCode
    /// Why the engine itself did not send the message (nil when the server answered): for
    /// 0x95, the PUBLISH's size and the server's Maximum Packet Size.
    public var notSent: String?

    public init(cid: String, reasonCode: ReasonCode, notSent: String? = nil) {
        self.cid = cid
        self.reasonCode = reasonCode
        self.notSent = notSent
    }

    public var isAccepted: Bool { !reasonCode.isFailure }

    /// What happened, in words: the server's refusal, or why the message was never sent.
    public var failure: String? {
        if let notSent { return "the message was not sent: \(notSent)" }
        return isAccepted ? nil : "the server refused the message: \(reasonCode)"
    }

    public var description: String { failure.map { "\(cid) rejected: \($0)" } ?? "\(cid) sent" }
}

/// A status change as handlers and streams see it (and as the connection log keeps it).
public typealias StatusChange = ConnectionLogEntry
