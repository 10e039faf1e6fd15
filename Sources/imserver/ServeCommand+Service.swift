import IMCommandLine
import IMJSON
import IMServer
import IMTransport

extension ServeCommand {
    /// SIGHUP: RELOADING=1, the certificate and the configuration file read again, READY=1.
    static func reload(_ server: EmbeddedServer, configuration: ConfigurationSource, json: Bool, notifier: ServiceNotifier?) async {
        tell(notifier, .reloading)
        reloadCertificate(server, json: json)
        if let path = configuration.path { await reloadConfiguration(server, path: path, started: configuration.started, json: json) }
        tell(notifier, .ready("reloaded"))
    }

    /// Where the configuration came from: its file (none: the development default, nothing to
    /// read again) and what it said at start, which the listeners keep.
    struct ConfigurationSource: Sendable {
        var path: String?
        var started: ServerConfiguration
    }

    /// Reads the configuration file again and applies it, clients staying connected. A file
    /// that does not load leaves everything as it was, and every problem is a warning naming
    /// the file, the field and the reason.
    static func reloadConfiguration(_ server: EmbeddedServer, path: String, started: ServerConfiguration, json: Bool) async {
        let (loaded, diagnostics) = ConfigurationFile.load(path)
        for diagnostic in diagnostics {
            CommandLineTool.writeError("imserver: warning: SIGHUP: \(diagnostic)\n")
        }
        guard let loaded else {
            return CommandLineTool.writeError("imserver: warning: SIGHUP: \(path) does not load; the previous configuration stays in use\n")
        }
        var waiting: [String]
        do {
            waiting = try await server.reconfigure(loaded)
        } catch {
            return CommandLineTool.writeError("imserver: warning: SIGHUP: \(error); the previous configuration stays in use\n")
        }
        if loaded.metricsListen != started.metricsListen { waiting.append("metricsListen") }
        for field in waiting {
            CommandLineTool.writeError("imserver: warning: SIGHUP: \(path): \(field) changes at the next start\n")
        }
        let event: JSONValue = .object(JSONObject([
            ("event", "reloaded"), ("configuration", .string(path)), ("apps", .integer(Int64(loaded.apps.count))),
        ]))
        CommandLineTool.writeOut(json ? event.jsonText + "\n" : "reloaded configuration \(path) (\(loaded.apps.count) apps)\n")
    }

    /// Sends a state to systemd when it listens; a failure is a warning, the server runs on.
    static func tell(_ notifier: ServiceNotifier?, _ state: ServiceNotifier.State) {
        guard let notifier else { return }
        do {
            try notifier.notify(state)
        } catch {
            CommandLineTool.writeError("imserver: warning: cannot notify systemd at \(notifier.socketName): \(error)\n")
        }
    }
}
