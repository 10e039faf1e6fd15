/// Why a host cannot be named in a development certificate: the text given and the reason,
/// worded for a person (`imserver cert` prints it for its `--host`).
public struct TLSCertificateHostError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with the text as a host name (it is no IP address either).
    public enum Reason: Sendable, Equatable {
        case empty
        /// Unicode: an internationalized name goes into a certificate in its IDNA form.
        case notASCII
        /// A character that is not a letter, a digit, '-' or '.'.
        case character(Character)
        /// Longer than 253 characters, given here.
        case tooLong(Int)
        /// Two dots in a row, or a dot at either end.
        case emptyLabel
        /// The label at `position` (from 1) is longer than 63 characters.
        case labelTooLong(position: Int, length: Int)
        case hyphenAtLabelEdge(String)
        /// All digits after the last dot, like an address, yet no address.
        case numericTopLabel
    }

    public let host: String
    public let reason: Reason

    public var description: String { "'\(host)' is neither an IP address nor a host name: \(explanation)" }

    private var explanation: String {
        switch reason {
        case .empty:
            "it is empty"
        case .notASCII:
            "it is not ASCII; a certificate names an internationalized domain in its IDNA (punycode) form, "
                + "so write it as xn--... (the idn2 command prints it)"
        case .character("*"):
            "'*' is not allowed: wildcards are not supported, name each host"
        case .character(let character):
            "'\(character)' is not allowed: a host name has letters, digits, '-' and '.' only"
        case .tooLong(let length):
            "it has \(length) characters, at most \(TLSCertificateHost.maximumNameLength) are allowed"
        case .emptyLabel:
            "it has an empty label (two dots in a row, or a dot at an end)"
        case .labelTooLong(let position, let length):
            "label \(position) has \(length) characters, at most \(TLSCertificateHost.maximumLabelLength) are allowed"
        case .hyphenAtLabelEdge(let label):
            "the label '\(label)' \(label.hasPrefix("-") ? "starts" : "ends") with '-'"
        case .numericTopLabel:
            "its last label is all digits, as in an IPv4 address, but it is not a valid one"
        }
    }
}
