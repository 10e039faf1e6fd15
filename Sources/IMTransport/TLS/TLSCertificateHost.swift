/// A host a development server certificate is for: an IP address, or a host name as RFC 1123
/// has them (dot-separated labels of letters, digits and inner hyphens).
///
/// Checked before it goes into the certificate, where it becomes a subjectAltName entry in
/// OpenSSL's configuration syntax: a comma there would add entries of its own, and a
/// wildcard, a path or a Unicode name makes a certificate that no client matches.
public struct TLSCertificateHost: Sendable, Equatable, CustomStringConvertible {
    /// Longest host name, in characters: 255 octets on the wire less the length bytes.
    static let maximumNameLength = 253
    /// Longest label of a host name (RFC 1035).
    static let maximumLabelLength = 63

    /// Whether the certificate names an address (`IP:`) or a host name (`DNS:`).
    public let isAddress: Bool
    /// The host name as given, or the address in its usual text form (`::1`, without brackets).
    public let text: String

    /// Takes `text` as an IP address, else as a host name.
    /// - Throws: what makes `text` neither, naming it and the reason.
    public init(_ text: String) throws(TLSCertificateHostError) {
        if let address = SocketAddress(ipAddress: text, port: 0) {
            isAddress = true
            self.text = address.host
            return
        }
        if let reason = Self.refusal(ofName: text) { throw TLSCertificateHostError(host: text, reason: reason) }
        isAddress = false
        self.text = text
    }

    public var description: String { text }

    /// The certificate's subjectAltName entry for this host.
    var subjectAltName: String { (isAddress ? "IP:" : "DNS:") + text }

    private static func refusal(ofName name: String) -> TLSCertificateHostError.Reason? {
        if name.isEmpty { return .empty }
        guard name.unicodeScalars.allSatisfy(\.isASCII) else { return .notASCII }
        let allowed = { (character: Character) in character.isLetter || character.isNumber || character == "-" || character == "." }
        if let character = name.first(where: { !allowed($0) }) { return .character(character) }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        for (index, label) in labels.enumerated() {
            if label.isEmpty { return .emptyLabel }
            if label.count > maximumLabelLength { return .labelTooLong(position: index + 1, length: label.count) }
            if label.hasPrefix("-") || label.hasSuffix("-") { return .hyphenAtLabelEdge(String(label)) }
        }
        if name.count > maximumNameLength { return .tooLong(name.count) }
        // RFC 1123 section 2.1: the highest-level label of a host name is never all digits,
        // so a name cannot pass for a dotted-decimal address ("256.1.1.1", "10.1").
        if let last = labels.last, last.allSatisfy(\.isNumber) { return .numericTopLabel }
        return nil
    }
}
