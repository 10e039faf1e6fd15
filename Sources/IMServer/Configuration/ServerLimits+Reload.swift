extension ServerLimits {
    /// The fields of `other` that differ from these and that only a restart applies: the
    /// listeners and the API take them when they open (frame and buffer sizes, the body limit).
    public func fixedAtStart(differingIn other: ServerLimits) -> [String] {
        var fields: [String] = []
        if other.maxPacketSize != maxPacketSize { fields.append("limits.maxPacketSize") }
        if other.outgoingBufferLimit != outgoingBufferLimit { fields.append("limits.outgoingBufferLimit") }
        if other.apiMaxBodySize != apiMaxBodySize { fields.append("limits.apiMaxBodySize") }
        return fields
    }
}
