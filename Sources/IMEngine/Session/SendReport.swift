import MQTT

/// The server's answer to one sent message (its PUBACK).
public struct SendReport: Sendable, Equatable, CustomStringConvertible {
    /// The client message id `send` assigned.
    public var cid: String
    /// 0x00 when the server stored the message; 0x87 (not authorized), 0x99 (bad payload), ...
    public var reasonCode: ReasonCode

    public init(cid: String, reasonCode: ReasonCode) {
        self.cid = cid
        self.reasonCode = reasonCode
    }

    public var isAccepted: Bool { !reasonCode.isFailure }

    public var description: String { isAccepted ? "\(cid) sent" : "\(cid) rejected: \(reasonCode)" }
}

/// A status change as handlers and streams see it (and as the connection log keeps it).
public typealias StatusChange = ConnectionLogEntry
