import IMProtocol
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
    /// The PUBACK's `im-error`, such as `quota-exceeded` with 0x97.
    public var imError: IMErrorName?
    /// The PUBACK's Reason String: the server's words for people.
    public var reasonString: String?

    public init(cid: String, reasonCode: ReasonCode, notSent: String? = nil, imError: IMErrorName? = nil, reasonString: String? = nil) {
        self.cid = cid
        self.reasonCode = reasonCode
        self.notSent = notSent
        self.imError = imError
        self.reasonString = reasonString
    }

    /// The report of `acknowledgement`, with what its properties say.
    public init(cid: String, _ acknowledgement: PubAck, notSent: String? = nil) {
        let properties = acknowledgement.properties
        self.init(cid: cid, reasonCode: acknowledgement.reasonCode, notSent: notSent,
                  imError: properties.userProperty(IMUserProperty.error).map(IMErrorName.init(rawValue:)),
                  reasonString: properties.reasonString)
    }

    public var isAccepted: Bool { !reasonCode.isFailure }

    /// What happened, in words: the server's refusal (with its `im-error` and reason string),
    /// or why the message was never sent.
    public var failure: String? {
        if let notSent { return "the message was not sent: \(notSent)" }
        guard !isAccepted else { return nil }
        let details = [imError?.rawValue, reasonString].compactMap { $0 }.joined(separator: ": ")
        return "the server refused the message: \(reasonCode)" + (details.isEmpty ? "" : " (\(details))")
    }

    public var description: String { failure.map { "\(cid) rejected: \($0)" } ?? "\(cid) sent" }
}

/// A status change as handlers and streams see it (and as the connection log keeps it).
public typealias StatusChange = ConnectionLogEntry
