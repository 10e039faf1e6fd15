import IMCommandLine

/// A `HOST:PORT` from the command line; an IPv6 host is written in brackets.
struct ChaosEndpoint: Equatable, CustomStringConvertible {
    var host: String
    var port: UInt16

    static func parse(_ text: String, option: String) throws(UsageError) -> ChaosEndpoint {
        let problem = UsageError("\(option) wants HOST:PORT, such as 127.0.0.1:1883, not '\(text)'")
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else { throw problem }
        var host = Substring(text[..<colon])
        if host.first == "[" && host.last == "]" { host = host.dropFirst().dropLast() }
        guard !host.isEmpty else { throw problem }
        return ChaosEndpoint(host: String(host), port: port)
    }

    var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
