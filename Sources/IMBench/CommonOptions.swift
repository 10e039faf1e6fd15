import IMCommandLine
import IMHTTP
import IMProfiles
import IMProtocol

/// The options every bench shares: where the server runs, where data goes, engine threads, output.
package struct CommonOptions: Sendable {
    enum ServerMode: Sendable, Equatable {
        /// The IM server in imsh's own process.
        case embedded
        /// A separate imserver, started from the executable next to imsh.
        case spawn
        /// Servers the bench did not start; session i goes to server i mod count, the others in turn
        /// its fallbacks (nodes of one service).
        case addresses([ServerAddress])
    }

    var server = ServerMode.embedded
    /// The app of `addresses` servers and its secret, which signs the sessions' tokens here.
    var app: (key: String, secret: String)?
    /// Kept after the run; nil uses a temporary directory, removed afterwards.
    package var data: String?
    package var threads = 2
    package var timeout: Duration = .seconds(60)
    package var json = false
    /// Where `--report` writes the figures as an HTML page.
    var report: String?

    static let options: [OptionSpec] = [
        OptionSpec("--server", value: "embedded|spawn|URLS", completion: .words(["embedded", "spawn"]), help: "the IM server in this process (default), a separate imserver started from the binary next to imsh, or (connect, messages, reconnect) running servers mqtt://HOST[:PORT],... (session i on server i mod count, the others its fallbacks; with --app-key)"),
        OptionSpec("--data", value: "DIR", help: "keep the server's and the sessions' databases in DIR (a second run reuses them); default: a temporary directory, removed"),
        OptionSpec("--threads", value: "T", help: "event loop threads of the sessions' engine (default 2)"),
        OptionSpec("--timeout", value: "S", help: "give up on a session not connected within S seconds (default 60)"),
        OptionSpec("--json", help: "print the result as one JSON object, and no progress"),
        OptionSpec("--report", value: "FILE.html", help: "also write the figures as pictures in one self-contained HTML page (mode 0600)"),
    ]

    /// `--app-key` and `--app-secret`: for benches that sign tokens for servers they did not start.
    package static let appOptions: [OptionSpec] = [
        OptionSpec("--app-key", value: "K", help: "log in with tokens of app K, signed here with --app-secret"),
        OptionSpec("--app-secret", value: "S", help: "the app's secret, to sign the tokens"),
    ]

    init() {}

    /// Reads the options; `serverList`: the bench can drive servers it did not start.
    package init(_ reader: OptionReader, serverList: Bool = false) throws(UsageError) {
        if let text = reader.parsed.value("--server") {
            server = try Self.serverMode(text)
        }
        let key = reader.parsed.value("--app-key"), secret = reader.parsed.value("--app-secret")
        if (key == nil) != (secret == nil) { throw UsageError("--app-key and --app-secret go together: tokens are signed with both") }
        if let key, let secret { app = (key, secret) }
        if case .addresses = server {
            guard serverList else { throw UsageError("--server URLs go with bench connect, messages and reconnect; this bench starts its own server") }
            if app == nil {
                throw UsageError("--server with URLs: give --app-key and --app-secret (imserver's development app: imsh-dev, imsh-dev-secret)")
            }
        }
        data = reader.parsed.value("--data")
        if data?.isEmpty == true { throw UsageError("--data wants a directory") }
        threads = try reader.integer("--threads", in: 1...64) ?? threads
        timeout = try reader.seconds("--timeout", in: 0.1...86_400) ?? timeout
        json = reader.parsed.has("--json")
        report = reader.parsed.value("--report")
        if report?.isEmpty == true { throw UsageError("--report wants a file name") }
    }

    /// `embedded`, `spawn`, or MQTT URLs separated by commas, read as profiles read theirs.
    private static func serverMode(_ text: String) throws(UsageError) -> ServerMode {
        if text == "embedded" { return .embedded }
        if text == "spawn" { return .spawn }
        var addresses: [ServerAddress] = []
        for url in text.split(separator: ",", omittingEmptySubsequences: false) {
            do throws(URLParseError) {
                addresses.append(try ServerAddress(mqttURL: String(url)))
            } catch {
                throw UsageError("--server wants embedded, spawn or MQTT URLs separated by commas, not '\(url)': \(error.reason)")
            }
        }
        return .addresses(addresses)
    }
}
