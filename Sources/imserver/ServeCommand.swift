import IMCommandLine
import IMHTTP
import IMJSON
import IMServer
import IMTransport

#if canImport(Glibc)
import Glibc
#endif

/// `imserver [--listen HOST:PORT] [--api HOST:PORT] [--tls-listen HOST:PORT] [--api-tls-listen HOST:PORT]
/// [--ws-listen HOST:PORT] [--wss-listen HOST:PORT] [--metrics-listen HOST:PORT] [--cert FILE --key FILE [--client-ca FILE]] [--data DIR | --store URL [--node-name NAME] [--store-connections N]] [--config FILE] [--json]`:
/// runs the server until SIGINT or SIGTERM, then stops gracefully; SIGHUP reloads the certificate.
enum ServeCommand {
    static let spec = CommandSpec(
        name: "imserver",
        version: imshVersion,
        summary: "the IM server: MQTT 5 for clients, an HTTP API for app servers",
        usage: [
            "[--listen HOST:PORT] [--api HOST:PORT] [--tls-listen HOST:PORT] [--api-tls-listen HOST:PORT]\n"
                + "         [--ws-listen HOST:PORT] [--wss-listen HOST:PORT] [--metrics-listen HOST:PORT]\n"
                + "         [--cert FILE --key FILE [--client-ca FILE]]\n"
                + "         [--data DIR | --store URL [--node-name NAME] [--store-connections N] [--advertise HOST:PORT]\n"
                + "                                   [--node-listen HOST:PORT]]\n"
                + "         [--drain-timeout S] [--config FILE] [--json]",
        ],
        options: [
            OptionSpec("--listen", value: "HOST:PORT", help: "where MQTT clients connect (default 127.0.0.1:1883; port 0 picks one)"),
            OptionSpec("--api", value: "HOST:PORT", help: "where the HTTP server API listens (default 127.0.0.1:8080)"),
            OptionSpec("--tls-listen", value: "HOST:PORT", help: "also serve MQTT over TLS there (needs --cert and --key)"),
            OptionSpec("--api-tls-listen", value: "HOST:PORT", help: "also serve the API over HTTPS there (needs --cert and --key)"),
            OptionSpec("--ws-listen", value: "HOST:PORT", help: "also serve MQTT over WebSocket there (path /mqtt)"),
            OptionSpec("--wss-listen", value: "HOST:PORT", help: "also serve MQTT over WebSocket over TLS there (path /mqtt; needs --cert and --key)"),
            OptionSpec("--metrics-listen", value: "HOST:PORT", help: "serve /metrics (Prometheus), /healthz and /readyz there, plain HTTP"),
            OptionSpec("--cert", value: "FILE", help: "the TLS certificate, PEM, leaf first, chain allowed"),
            OptionSpec("--key", value: "FILE", help: "its private key, PEM, readable by the owner only"),
            OptionSpec("--client-ca", value: "FILE", help: "require TLS clients to present a certificate issued by these CAs"),
            OptionSpec("--data", value: "DIR", help: "data directory (default $XDG_STATE_HOME/imserver, else ~/.local/state/imserver)"),
            OptionSpec("--store", value: "URL", help: "keep everything in this PostgreSQL database (postgres://...), shared with other nodes"),
            OptionSpec("--node-name", value: "NAME", help: "this node's name among those on --store (default: host name and a random suffix)"),
            OptionSpec("--store-connections", value: "N", help: "at most N connections to --store (default 4)"),
            OptionSpec("--advertise", value: "HOST:PORT", help: "where clients reach this node, for the other nodes' DISCONNECT 0x9C (default: --listen's)"),
            OptionSpec("--node-listen", value: "HOST:PORT", help: "where the other nodes on --store link to this one, an address they reach (default 127.0.0.1:0)"),
            OptionSpec("--drain-timeout", value: "S", help: "at a stop, wait up to S seconds for clients to leave and writes to commit (default 10)"),
            OptionSpec("--config", value: "FILE", help: "apps and limits (JSON); without it the development app imsh-dev exists"),
            OptionSpec("--json", help: "print events as JSON objects, one a line"),
            CompletionScript.option,
        ],
        epilogue: "Stops gracefully on SIGINT or SIGTERM; SIGHUP reloads --cert, --key and --config. See imserver(8).")

    /// Serves as `parsed` says (imserver's command line without a subcommand) until a signal stops it.
    static func main(_ parsed: ParsedArguments) async -> Never {
        if let extra = parsed.positionals.first {
            CommandLineTool.fail(spec, UsageError("unexpected argument '\(extra)' (see 'imserver --help')"))
        }
        let json = parsed.has("--json")
        let mqtt = endpoint(parsed, "--listen", default: "127.0.0.1:1883")!
        let api = endpoint(parsed, "--api", default: "127.0.0.1:8080")!
        let configuration = ConfigurationFile.loadOrExit(parsed.value("--config"))
        let dataDirectory = parsed.value("--data") ?? SQLiteServerStore.defaultDirectory()
        let store = storeOptions(parsed)

        ProcessLimits.ignoreSIGPIPE()
        let descriptors = (try? ProcessLimits.raiseOpenFileLimit()) ?? 0
        if !json {
            // Each connection holds a descriptor below the listeners' ceiling; the store,
            // listeners and loops hold a few more of those.
            let room = min(max(0, ProcessLimits.connectionCeiling(limit: descriptors) - 32), configuration.limits.maxConnections)
            let kept = store.url.map { "store \(PostgresServerStore.redacted($0)) as node \(store.nodeName)" } ?? "data \(dataDirectory)"
            CommandLineTool.writeOut("\(kept), open-file limit \(descriptors): room for about \(room) connections\n")
        }
        var options = EmbeddedServer.Options(
            configuration: configuration, mqttHost: mqtt.host, mqttPort: mqtt.port,
            apiHost: api.host, apiPort: api.port, dataDirectory: dataDirectory)
        (options.storeURL, options.nodeName, options.storeConnections) = (store.url, store.nodeName, store.connections)
        if let link = store.link { (options.linkHost, options.linkPort) = (link.host, link.port) }
        options.warning = { CommandLineTool.writeError("imserver: warning: \($0)\n") }
        if let endpoint = endpoint(parsed, "--ws-listen") {
            (options.webSocketHost, options.webSocketPort) = (endpoint.host, endpoint.port)
        }
        if let endpoint = endpoint(parsed, "--metrics-listen") ?? configuration.metricsListen {
            (options.metricsHost, options.metricsPort) = (endpoint.host, endpoint.port)
        }
        configureDrain(&options, parsed, storeURL: store.url)
        configureTLS(&options, parsed)
        if store.url == nil, let upgrade = await SchemaUpgrade.pending(directory: dataDirectory) {
            announce(upgrade, json: json)
        }
        let server: EmbeddedServer
        do {
            server = try await EmbeddedServer.start(options)
        } catch {
            CommandLineTool.writeError("imserver: \(error)\n")
            exit(1)
        }
        let notifier = ServiceNotifier.fromEnvironment()
        let source = ConfigurationSource(path: parsed.value("--config"), started: configuration)
        let signals = SignalWatch { await reload(server, configuration: source, json: json, notifier: notifier) }
        var listening = [("mqtt", server.mqttAddress.description), ("api", server.apiAddress.description)]
        if let address = server.mqttTLSAddress { listening.append(("mqtts", address.description)) }
        if let address = server.apiTLSAddress { listening.append(("https", address.description)) }
        if let address = server.webSocketAddress { listening.append(("ws", address.description)) }
        if let address = server.secureWebSocketAddress { listening.append(("wss", address.description)) }
        if let address = server.metricsAddress { listening.append(("metrics", address.description)) }
        if let address = server.linkAddress { listening.append(("link", address.description)) }
        if json {
            let fields = listening.map { #""\#($0.0)":"\#($0.1)""# }.joined(separator: ",")
            CommandLineTool.writeOut(#"{"event":"listening",\#(fields)}"# + "\n")
        } else {
            CommandLineTool.writeOut("listening " + listening.map { "\($0.0) \($0.1)" }.joined(separator: " ") + "\n")
        }
        tell(notifier, .ready("listening " + listening.map { "\($0.0) \($0.1)" }.joined(separator: " ")))
        let signal = await signals.stopSignal()
        tell(notifier, .stopping("stopping (\(signal)): draining"))
        server.beginDraining(signal)
        await server.stop()
        if json {
            CommandLineTool.writeOut(#"{"event":"stopped","signal":"\#(signal)"}"# + "\n")
        } else {
            CommandLineTool.writeOut("stopped (\(signal))\n")
        }
        exit(0)
    }

    /// Says that the database is upgraded before imserver listens: one upgrade copies every message.
    static func announce(_ upgrade: SchemaUpgrade, json: Bool) {
        if json {
            let event: JSONValue = .object(JSONObject([
                ("event", "upgrading"), ("file", .string(upgrade.path)), ("from", .integer(Int64(upgrade.from))),
                ("to", .integer(Int64(upgrade.to))), ("messages", .integer(upgrade.messages)),
            ]))
            CommandLineTool.writeOut(event.jsonText + "\n")
        } else {
            CommandLineTool.writeOut(
                "upgrading \(upgrade.path) from schema version \(upgrade.from) to \(upgrade.to) (\(upgrade.messages) messages) before listening\n")
        }
    }

    /// The `HOST:PORT` of listening option `option`, or `fallback`; exits with a usage error.
    static func endpoint(_ parsed: ParsedArguments, _ option: String, default fallback: String? = nil) -> HostPort? {
        do throws(UsageError) {
            return try OptionReader(parsed: parsed, command: "imserver").endpoint(option, default: fallback, listening: true)
        } catch {
            CommandLineTool.fail(spec, error)
        }
    }
}
