import IMBench

/// A PostgreSQL URL (`postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?...]`) taken apart just
/// enough to send a node through a proxy: the same URL with another host and port.
struct ChaosStoreURL: Sendable {
    var scheme: String
    /// `USER[:PASSWORD]@`, or empty.
    var credentials: String
    var host: String
    var port: UInt16
    /// `/DATABASE[?...]`.
    var rest: String

    init(_ url: String) throws(BenchError) {
        let failure = BenchError("--store wants postgres://USER@HOST[:PORT]/DATABASE, not '\(url)'")
        guard let schemeEnd = url.range(of: "://") else { throw failure }
        scheme = String(url[..<schemeEnd.lowerBound])
        guard scheme == "postgres" || scheme == "postgresql" else { throw failure }
        var remainder = url[schemeEnd.upperBound...]
        let slash = remainder.firstIndex(of: "/") ?? remainder.endIndex
        rest = String(remainder[slash...])
        remainder = remainder[..<slash]
        if let at = remainder.lastIndex(of: "@") {
            credentials = String(remainder[...at])
            remainder = remainder[remainder.index(after: at)...]
        } else {
            credentials = ""
        }
        if let colon = remainder.lastIndex(of: ":"), !remainder.hasSuffix("]") {
            guard let number = UInt16(remainder[remainder.index(after: colon)...]) else { throw failure }
            host = String(remainder[..<colon])
            port = number
        } else {
            host = String(remainder)
            port = 5432
        }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.hasPrefix("/") else { throw failure }
    }

    /// The same URL to `host:port`.
    func pointing(to host: String, port: UInt16) -> String {
        "\(scheme)://\(credentials)\(host):\(port)\(rest)"
    }
}
