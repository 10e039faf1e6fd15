#if canImport(Glibc)
import Glibc
#endif
import IMHTTP

/// The `SCHEME://HOST[:PORT]` grammar shared by server and proxy addresses.
///
/// Hosts are names, IPv4 addresses or bracketed IPv6 literals; names are lowercased.
enum HostAndPort {
    /// The text after `scheme://`, with the scheme checked (case-insensitively) against `scheme`.
    static func afterScheme(_ text: String, scheme: String, form: String) throws(URLParseError) -> Substring {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw URLParseError("address is empty or has spaces, control or non-ASCII characters; expected \(form)")
        }
        guard let range = text.firstRange(of: "://") else { throw URLParseError("expected \(form)") }
        let given = text[..<range.lowerBound].lowercased()
        guard given == scheme else { throw URLParseError("unsupported scheme \(given); expected \(form)") }
        return text[range.upperBound...]
    }

    /// Splits `HOST[:PORT]`, with `defaultPort` when no port is written.
    static func parse(_ text: Substring, defaultPort: UInt16) throws(URLParseError) -> (host: String, port: UInt16) {
        let host: Substring
        var port: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw URLParseError("unclosed '[' in the host") }
            host = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw URLParseError("unexpected \(after) after the IPv6 address") }
                port = after.dropFirst()
            }
            var address = in6_addr()
            guard inet_pton(AF_INET6, String(host), &address) == 1 else { throw URLParseError("invalid IPv6 address \(host)") }
        } else {
            let colons = text.filter { $0 == ":" }.count
            guard colons <= 1 else { throw URLParseError("put an IPv6 address in brackets, as in [::1]:\(defaultPort)") }
            if let colon = text.firstIndex(of: ":") {
                host = text[..<colon]
                port = text[text.index(after: colon)...]
            } else {
                host = text
            }
            guard !host.isEmpty else { throw URLParseError("no host") }
            guard host.utf8.allSatisfy(ProfileName.isNameByte) else { throw URLParseError("invalid character in host \(host)") }
        }
        guard let port else { return (host.lowercased(), defaultPort) }
        guard (1...5).contains(port.utf8.count), port.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
              let number = UInt16(port), number > 0 else {
            throw URLParseError("port must be a number from 1 to 65535")
        }
        return (host.lowercased(), number)
    }

    /// `host:port`, with brackets around an IPv6 literal.
    static func format(host: String, port: UInt16) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
