/// Bounds a parser enforces before it keeps or allocates anything for a message.
public struct HTTPLimits: Hashable, Sendable {
    /// The start line plus all header lines, in bytes.
    public var maxHeadBytes: Int
    /// The number of header fields.
    public var maxHeaderCount: Int
    /// The body, in bytes, however it is framed.
    public var maxBodyBytes: Int

    public init(maxHeadBytes: Int = 16 * 1024, maxHeaderCount: Int = 100, maxBodyBytes: Int = 1024 * 1024) {
        self.maxHeadBytes = maxHeadBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxBodyBytes = maxBodyBytes
    }
}
