import IMCommandLine

/// The options every bench shares: where the server runs, where data goes, engine threads, output.
struct CommonOptions: Sendable {
    enum ServerMode: String, Sendable {
        /// The IM server in imsh's own process.
        case embedded
        /// A separate imserver, started from the executable next to imsh.
        case spawn
    }

    var server = ServerMode.embedded
    /// Kept after the run; nil uses a temporary directory, removed afterwards.
    var data: String?
    var threads = 2
    var timeout: Duration = .seconds(60)
    var json = false
    /// Where `--report` writes the figures as an HTML page.
    var report: String?

    static let options: [OptionSpec] = [
        OptionSpec("--server", value: "embedded|spawn", help: "the IM server in this process (default), or a separate imserver started from the binary next to imsh"),
        OptionSpec("--data", value: "DIR", help: "keep the server's and the sessions' databases in DIR (a second run reuses them); default: a temporary directory, removed"),
        OptionSpec("--threads", value: "T", help: "event loop threads of the sessions' engine (default 2)"),
        OptionSpec("--timeout", value: "S", help: "give up on a session not connected within S seconds (default 60)"),
        OptionSpec("--json", help: "print the result as one JSON object, and no progress"),
        OptionSpec("--report", value: "FILE.html", help: "also write the figures as pictures in one self-contained HTML page (mode 0600)"),
    ]

    init() {}

    init(_ reader: OptionReader) throws(UsageError) {
        if let text = reader.parsed.value("--server") {
            guard let mode = ServerMode(rawValue: text) else {
                throw UsageError("--server wants embedded or spawn, not '\(text)'")
            }
            server = mode
        }
        data = reader.parsed.value("--data")
        if data?.isEmpty == true { throw UsageError("--data wants a directory") }
        threads = try reader.integer("--threads", in: 1...64) ?? threads
        timeout = try reader.seconds("--timeout", in: 0.1...86_400) ?? timeout
        json = reader.parsed.has("--json")
        report = reader.parsed.value("--report")
        if report?.isEmpty == true { throw UsageError("--report wants a file name") }
    }
}
