#if canImport(Glibc)
import Glibc
#endif
import IMProfiles
import IMTransport

/// The embedded server's TLS: a development CA and certificate made once in its data directory.
extension EmbeddedServerHost {
    /// Where the development CA and the server's certificate and key are kept.
    nonisolated var certificateDirectory: String { Self.certificateDirectory(in: dataDirectory) }

    static func certificateDirectory(in dataDirectory: String) -> String { dataDirectory + "/tls" }

    /// The account's TLS settings; for an embedded profile, the development CA unless the
    /// profile names a CA of its own.
    nonisolated func tls(for account: Account, in profile: Profile) -> TLSClientConfiguration? {
        guard profile.server == .embedded, var tls = account.tls else { return account.tls }
        if tls.caPath == nil { tls.caPath = certificateDirectory + "/ca.pem" }
        return tls
    }

    /// The server identity kept under `dataDirectory`, made there on first use (as `imserver cert` makes one).
    static func developmentIdentity(dataDirectory: String) throws -> TLSServerIdentity {
        let directory = certificateDirectory(in: dataDirectory)
        for path in [dataDirectory, directory] where mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw TLSFailure(.configuration, "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        if access(directory + "/ca.pem", F_OK) != 0 {
            try TLSDevelopmentCertificates.write(to: directory, hosts: [TLSCertificateHost("localhost"), TLSCertificateHost("127.0.0.1")])
        }
        return try TLSServerIdentity(certificate: directory + "/server.pem", key: directory + "/server.key")
    }
}
