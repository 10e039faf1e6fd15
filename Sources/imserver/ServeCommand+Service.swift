import IMCommandLine
import IMServer
import IMTransport

extension ServeCommand {
    /// SIGHUP: RELOADING=1, the certificate (and configuration) read again, READY=1.
    static func reload(_ server: EmbeddedServer, json: Bool, notifier: ServiceNotifier?) async {
        tell(notifier, .reloading)
        reloadCertificate(server, json: json)
        tell(notifier, .ready("reloaded"))
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
