import IMCommandLine
import IMStore
import IMTransport

#if canImport(Glibc)
import Glibc
#endif

/// `imserver cert --out DIR --host NAME...`: a development CA and a server certificate it signs.
enum CertCommand {
    static let spec = CommandSpec(
        name: "imserver cert",
        version: imshVersion,
        summary: "write a development CA and a server certificate signed by it (ECDSA P-256)",
        usage: ["--out DIR --host NAME [--host NAME...]"],
        options: [
            OptionSpec("--out", value: "DIR", help: "where to write ca.pem, ca.key, server.pem, server.key (created 0700)"),
            OptionSpec("--host", value: "NAME", help: "a host name or IP address the server certificate is for (repeat)"),
        ],
        epilogue: """
            Then: imserver --tls-listen 127.0.0.1:8883 --cert DIR/server.pem --key DIR/server.key
            and in the profile: "server": "mqtts://NAME:8883", "tls": {"ca": "DIR/ca.pem"}.
            For development only: keep ca.key private, and never trust this CA system-wide.
            Each --host is an IP address or a host name of letters, digits, '-' and '.' (RFC 1123);
            an internationalized name is given in its IDNA form (xn--...). DIR must not be
            writable by group or others, nor owned by another user.
            exit status: 0 written, 1 cannot write, 2 usage error (a bad --host or DIR included)
            """)

    /// `imserver cert` in imserver's command table.
    static let subcommand = Subcommand(spec, synopsis: "--out DIR --host NAME...", run: { main($0) })

    /// Runs `imserver cert` with the arguments after `cert` and exits.
    static func main(_ arguments: [String]) -> Never {
        let parsed = CommandLineTool.parseOrExit(spec, arguments: arguments)
        if let extra = parsed.positionals.first {
            CommandLineTool.fail(spec, UsageError("unexpected argument '\(extra)' (see '\(spec.name) --help')"))
        }
        guard let directory = parsed.value("--out") else { CommandLineTool.fail(spec, UsageError("--out DIR is required")) }
        let given = parsed.values["--host"] ?? []
        guard !given.isEmpty else { CommandLineTool.fail(spec, UsageError("name at least one --host")) }
        var hosts: [TLSCertificateHost] = []
        for text in given {
            do {
                hosts.append(try TLSCertificateHost(text))
            } catch {
                CommandLineTool.fail(spec, UsageError("--host \(error)"))
            }
        }
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            CommandLineTool.writeError("imserver cert: cannot create \(directory): \(String(cString: strerror(errno)))\n")
            exit(1)
        }
        // Whoever else may write there could swap the CA key or plant a link for it to follow.
        if let unsafe = DataDirectory.unsafety(of: directory, name: "the output directory", option: "--out") {
            CommandLineTool.fail(spec, UsageError(unsafe))
        }
        do {
            try TLSDevelopmentCertificates.write(to: directory, hosts: hosts)
        } catch {
            CommandLineTool.writeError("imserver cert: \(error)\n")
            exit(1)
        }
        for name in TLSDevelopmentCertificates.fileNames { CommandLineTool.writeOut("wrote \(directory)/\(name)\n") }
        exit(0)
    }
}
