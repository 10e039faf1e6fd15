import IMCommandLine
import IMServer
import IMTransport

#if canImport(Glibc)
import Glibc
#endif

extension ServeCommand {
    /// Reads --tls-listen, --api-tls-listen, --wss-listen, --cert, --key and --client-ca into `options`;
    /// exits with the reason when the files are unusable.
    static func configureTLS(_ options: inout EmbeddedServer.Options, _ parsed: ParsedArguments) {
        let certificate = parsed.value("--cert"), key = parsed.value("--key")
        let wantsTLS = parsed.value("--tls-listen") != nil || parsed.value("--api-tls-listen") != nil
            || parsed.value("--wss-listen") != nil
        guard wantsTLS || certificate != nil || key != nil else { return }
        guard wantsTLS else {
            CommandLineTool.fail(spec, UsageError("--cert and --key serve the TLS listeners: add --tls-listen, --api-tls-listen or --wss-listen"))
        }
        guard let certificate, let key else {
            CommandLineTool.fail(spec, UsageError("a TLS listener needs --cert FILE and --key FILE"))
        }
        if let endpoint = endpoint(parsed, "--tls-listen") {
            (options.mqttTLSHost, options.mqttTLSPort) = (endpoint.host, endpoint.port)
        }
        if let endpoint = endpoint(parsed, "--wss-listen") {
            (options.secureWebSocketHost, options.secureWebSocketPort) = (endpoint.host, endpoint.port)
        }
        if let endpoint = endpoint(parsed, "--api-tls-listen") {
            (options.apiTLSHost, options.apiTLSPort) = (endpoint.host, endpoint.port)
        }
        do {
            options.tls = try TLSServerIdentity(certificate: certificate, key: key, clientCA: parsed.value("--client-ca"))
        } catch {
            CommandLineTool.writeError("imserver: \(error)\n")
            exit(1)
        }
    }

    /// SIGHUP: new connections get the certificate and key as the files are now; live ones keep theirs.
    static func reloadCertificate(_ server: EmbeddedServer, json: Bool) {
        guard let tls = server.tls else { return }
        do {
            try tls.reload()
            CommandLineTool.writeOut(json ? #"{"event":"reloaded","certificate":"\#(tls.certificatePath)"}"# + "\n"
                : "reloaded certificate \(tls.certificatePath)\n")
        } catch {
            CommandLineTool.writeError("imserver: warning: SIGHUP: \(error); the previous certificate stays in use\n")
        }
    }
}
