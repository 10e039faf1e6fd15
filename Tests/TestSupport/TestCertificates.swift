import Foundation
import IMProcess

/// Certificates made at test time with the `openssl` command (no key is checked in).
///
/// One CA signs a server certificate for `localhost` and 127.0.0.1, an expired one for the
/// same names, and a client certificate; a second, unrelated CA stands for "the wrong CA".
/// Every file is world-readable (0644) so that a stock broker that drops to its own user can
/// read them, except where a test asks otherwise.
public struct TestCertificates: Sendable {
    public let directory: String
    public var caFile: String { directory + "/ca.pem" }
    public var otherCAFile: String { directory + "/other-ca.pem" }
    public var serverCertificate: String { directory + "/server.pem" }
    public var serverKey: String { directory + "/server.key" }
    public var expiredCertificate: String { directory + "/expired.pem" }
    public var clientCertificate: String { directory + "/client.pem" }
    public var clientKey: String { directory + "/client.key" }

    /// Makes everything in `directory` (created 0755, so that other users can reach it).
    public static func make(in directory: String) throws -> TestCertificates {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let made = TestCertificates(directory: directory)
        try made.selfSigned("ca", subject: "/CN=imsh test CA")
        try made.selfSigned("other-ca", subject: "/CN=imsh other CA")
        try made.signed("server", subject: "/CN=localhost", names: "DNS:localhost,IP:127.0.0.1", days: "2")
        try made.signed("expired", subject: "/CN=localhost", names: "DNS:localhost,IP:127.0.0.1", days: "-1", key: "server")
        try made.signed("client", subject: "/CN=imsh test client", names: "DNS:client", days: "2")
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: directory + "/" + name)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory)
        return made
    }

    /// The base64 SHA-256 of the server key's SubjectPublicKeyInfo: the `pinSHA256` form.
    public func serverKeyPin() throws -> String {
        let der = try Self.openssl(["pkey", "-in", serverKey, "-pubout", "-outform", "DER"])
        let digest = try Self.openssl(["dgst", "-sha256", "-binary"], input: der)
        return Data(digest).base64EncodedString()
    }

    private func selfSigned(_ name: String, subject: String) throws {
        _ = try Self.openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-keyout", "\(directory)/\(name).key", "-out", "\(directory)/\(name).pem", "-days", "2", "-subj", subject,
        ])
    }

    /// A certificate `name.pem` signed by the CA; `key` reuses another certificate's key.
    private func signed(_ name: String, subject: String, names: String, days: String, key: String? = nil) throws {
        let keyFile = "\(directory)/\(key ?? name).key"
        var request = ["req", "-new", "-subj", subject, "-out", "\(directory)/\(name).csr"]
        request += key == nil
            ? ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", keyFile] : ["-key", keyFile]
        _ = try Self.openssl(request)
        let extensions = "\(directory)/\(name).ext"
        try "subjectAltName=\(names)\n".write(toFile: extensions, atomically: true, encoding: .utf8)
        _ = try Self.openssl([
            "x509", "-req", "-in", "\(directory)/\(name).csr", "-CA", caFile, "-CAkey", "\(directory)/ca.key",
            "-CAcreateserial", "-out", "\(directory)/\(name).pem", "-days", days, "-extfile", extensions,
        ])
    }

    @discardableResult
    static func openssl(_ arguments: [String], input: [UInt8]? = nil) throws -> [UInt8] {
        let output = try ChildProcess.run("/usr/bin/openssl", arguments, input: input, timeout: .seconds(20))
        guard output.termination.status == 0 else {
            throw TestCertificateError(
                "openssl \(arguments.joined(separator: " ")): \(String(decoding: output.stderr, as: UTF8.self))")
        }
        return output.stdout
    }
}
