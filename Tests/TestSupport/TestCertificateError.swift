/// A stock peer or certificate could not be set up; the text holds the tool's complaint.
public struct TestCertificateError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
