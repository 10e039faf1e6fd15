#if canImport(Glibc)
import Glibc
#endif
import IMConfig
import IMTransport

extension ProfileReader {
    /// The fields of a `tls` object (profile, `defaults` or account).
    static let tlsFieldNames: Set<String> = ["ca", "serverName", "cert", "key", "insecure", "pinSHA256"]

    /// `base` with the fields of `object`'s `tls` object over it, field by field, so that a
    /// profile can name the CA and an account its own client certificate. Relative file
    /// names are taken from the profile file's directory; files are checked for reading now,
    /// so that a typo shows with its line rather than at connect.
    func readTLS(_ object: ObjectReader, over base: TLSClientConfiguration?) -> TLSClientConfiguration? {
        guard let tls = object.object("tls", allowed: Self.tlsFieldNames) else { return base }
        var settings = base ?? TLSClientConfiguration()
        let files: [(String, WritableKeyPath<TLSClientConfiguration, String?>)] =
            [("ca", \.caPath), ("cert", \.certificatePath), ("key", \.keyPath)]
        for (key, field) in files {
            guard let name = tls.string(key), let node = tls.node(key) else { continue }
            let path = name.hasPrefix("/") ? name : directoryOfFile + name
            guard access(path, R_OK) == 0 else {
                diagnostics.error(tls.fieldPath(key), at: node.location, "cannot read \(path): \(String(cString: strerror(errno)))")
                continue
            }
            settings[keyPath: field] = path
        }
        if let name = tls.string("serverName") { settings.serverName = name }
        if let insecure = tls.bool("insecure") {
            settings.insecure = insecure
            if insecure, let node = tls.node("insecure") {
                diagnostics.warning(tls.fieldPath("insecure"), at: node.location,
                                    "server certificates are not verified: anyone on the way can read and change the traffic")
            }
        }
        if let pins = readPins(tls) { settings.pinnedSHA256 = pins }
        if (settings.certificatePath == nil) != (settings.keyPath == nil), tls.node("cert") != nil || tls.node("key") != nil {
            diagnostics.error(tls.path, at: tls.location, "give cert and key together (a client certificate needs its key)")
        }
        return settings
    }

    /// `pinSHA256`: base64 SHA-256 digests (44 characters), as `openssl dgst -sha256 -binary | base64` prints them.
    private func readPins(_ tls: ObjectReader) -> [String]? {
        guard let node = tls.node("pinSHA256") else { return nil }
        let field = tls.fieldPath("pinSHA256")
        guard case .array(let elements) = node.value, !elements.isEmpty else {
            diagnostics.error(field, at: node.location, "expected a non-empty array of base64 SHA-256 digests, found \(node.typeName)")
            return nil
        }
        var pins: [String] = []
        for (index, element) in elements.enumerated() {
            let base64 = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
            guard case .string(let text) = element.value, text.count == 44, text.hasSuffix("="),
                  text.dropLast().allSatisfy(base64.contains)
            else {
                diagnostics.error("\(field)[\(index)]", at: element.location,
                                  "expected the base64 SHA-256 of a public key (44 characters ending in '=')")
                continue
            }
            pins.append(text)
        }
        return pins
    }

    /// The profile file's directory, with a trailing slash ("" for a file named without one).
    private var directoryOfFile: String {
        guard let slash = diagnostics.file.lastIndex(of: "/") else { return "" }
        return String(diagnostics.file[...slash])
    }
}
