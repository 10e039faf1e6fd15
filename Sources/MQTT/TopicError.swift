/// Why a topic name or filter is not valid, with the reason code a receiver answers with.
public struct TopicError: Error, Hashable, Sendable, CustomStringConvertible {
    /// 0x90 topic name invalid or 0x8F topic filter invalid.
    public var reasonCode: ReasonCode
    public var message: String

    public init(_ reasonCode: ReasonCode, _ message: String) {
        self.reasonCode = reasonCode
        self.message = message
    }

    public var description: String { "\(reasonCode): \(message)" }
}
