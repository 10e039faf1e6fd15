/// An HTTP version; this codec speaks 1.0 and 1.1.
public struct HTTPVersion: Hashable, Sendable, CustomStringConvertible {
    public var major: Int
    public var minor: Int

    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)

    public var description: String { "HTTP/\(major).\(minor)" }

    /// Parses `HTTP/d.d`; nil when the text has another shape.
    init?(_ bytes: ArraySlice<UInt8>) {
        let text = Array(bytes)
        guard text.count == 8, text[0..<5] == Array("HTTP/".utf8)[...], text[6] == UInt8(ascii: "."),
            let major = Self.digit(text[5]), let minor = Self.digit(text[7])
        else { return nil }
        self.init(major: major, minor: minor)
    }

    private static func digit(_ byte: UInt8) -> Int? {
        ASCII.isDigit(byte) ? Int(byte - UInt8(ascii: "0")) : nil
    }
}
